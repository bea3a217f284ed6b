import { DeleteOutlined, PaperClipOutlined } from '@ant-design/icons';
import { showError, skipToken, toast, useDebouncedValue, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Card, Col, Form, Input, Modal, Row, Select, Space, Switch, Tabs, Typography, Upload } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { type CampaignVariable, fillVariables, isSavable } from '../../shared/campaigns';
import {
  useAllContactListsQuery,
  useCampaignSettingsQuery,
  useConnectionsQuery,
  useContactListItemsQuery,
  useCreateCampaignMutation,
  useDeleteCampaignMediaMutation,
  useQueueChoicesQuery,
  useTagChoicesQuery,
  useUpdateCampaignMutation,
  useUploadCampaignMediaMutation,
  useUserChoicesQuery,
} from '../api';
import type { Campaign, CampaignBody } from '../types';

/** The user search of the dialog starts at this many typed characters (docs/product/automation.md#validation, #constants-and-limits). */
export const USER_SEARCH_MIN = 3;
const VARIANTS = [1, 2, 3, 4, 5] as const;

type FormValues = Omit<CampaignBody, 'scheduledAt' | 'confirmation'> & { scheduledAt: string; confirmation: boolean };

/** `datetime-local` text of an instant (local time), and back. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const emptyValues = (): FormValues => ({
  name: '',
  message1: '',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
  confirmation: false,
  contactListId: null,
  tagListId: null,
  whatsappId: 0,
  userId: null,
  queueId: null,
  statusTicket: 'closed',
  openTicket: 'disabled',
  scheduledAt: '',
});

function valuesOf(campaign: Campaign | null): FormValues {
  if (!campaign) return emptyValues();
  return {
    ...emptyValues(),
    ...Object.fromEntries(Object.keys(emptyValues()).map((key) => [key, campaign[key as keyof Campaign] ?? null])),
    whatsappId: campaign.whatsappId ?? 0,
    scheduledAt: toLocalInput(campaign.scheduledAt),
  } as FormValues;
}

export interface CampaignDialogProps {
  open: boolean;
  campaign: Campaign | null;
  onClose(): void;
}

/**
 * The campaign dialog (docs/product/automation.md#screens-and-routes): name, five messages with their confirmations, connection, list or
 * tag, ticket options, start time and an attachment — read-only unless the campaign is editable — and a
 * preview of a message for a recipient of the list, its variables filled as the server fills them.
 */
export function CampaignDialog({ open, campaign, onClose }: CampaignDialogProps) {
  const { t } = useTranslation('campaigns');
  const [form] = Form.useForm<FormValues>();
  const [create, creating] = useCreateCampaignMutation();
  const [update, updating] = useUpdateCampaignMutation();
  const [upload, uploading] = useUploadCampaignMediaMutation();
  const [removeMedia] = useDeleteCampaignMediaMutation();
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [userSearch, setUserSearch] = useState('');
  const [previewVariant, setPreviewVariant] = useState(1);
  const [previewItem, setPreviewItem] = useState<number | null>(null);
  const searchedUsers = useDebouncedValue(userSearch);

  const editable = campaign === null || isSavable(campaign);
  const connections = useConnectionsQuery(open ? undefined : skipToken);
  const lists = useAllContactListsQuery(open ? undefined : skipToken);
  const tags = useTagChoicesQuery(open ? undefined : skipToken);
  const queues = useQueueChoicesQuery(open ? undefined : skipToken);
  const users = useUserChoicesQuery(open && searchedUsers.trim().length >= USER_SEARCH_MIN ? searchedUsers.trim() : skipToken);
  const settings = useCampaignSettingsQuery(open ? undefined : skipToken);

  const openTicket = Form.useWatch('openTicket', form);
  const confirmation = Form.useWatch('confirmation', form);
  const contactListId = Form.useWatch('contactListId', form);
  const watched = Form.useWatch([], form);
  const recipients = useContactListItemsQuery(
    open && contactListId ? { contactListId, searchParam: '', pageNumber: 1 } : skipToken,
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(valuesOf(campaign));
    setPendingFile(null);
    setUserSearch(campaign?.user?.name ?? '');
    setPreviewItem(null);
  }, [open, campaign, form]);

  const variables = useMemo<CampaignVariable[]>(() => {
    const raw = settings.data?.find((entry) => entry.key === 'variables')?.value;
    try {
      return raw ? (JSON.parse(raw) as CampaignVariable[]) : [];
    } catch {
      return [];
    }
  }, [settings.data]);

  const sample = recipients.data?.contacts.find((item) => item.id === previewItem) ?? recipients.data?.contacts[0] ?? null;
  const previewText = (prefix: 'message' | 'confirmationMessage') => {
    const text = String((watched as Record<string, unknown> | undefined)?.[`${prefix}${previewVariant}`] ?? '');
    if (!text.trim()) return null;
    return fillVariables(
      text,
      sample ?? { name: t('dialog.previewSampleName'), number: '5511999999999', email: null },
      variables,
    );
  };

  const submit = async (values: FormValues) => {
    const body: CampaignBody = {
      ...values,
      contactListId: values.contactListId ?? null,
      tagListId: values.tagListId ?? null,
      userId: values.openTicket === 'enabled' ? (values.userId ?? null) : null,
      queueId: values.openTicket === 'enabled' ? (values.queueId ?? null) : null,
      scheduledAt: values.scheduledAt ? new Date(values.scheduledAt).toISOString() : null,
    };
    try {
      const saved = campaign ? await update({ id: campaign.id, body }).unwrap() : await create(body).unwrap();
      if (pendingFile) await upload({ id: saved.id, file: pendingFile }).unwrap();
      toast.success(t(campaign ? 'toasts.updated' : 'toasts.created'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  const deleteMedia = async () => {
    if (!campaign) return;
    try {
      await removeMedia(campaign.id).unwrap();
      toast.success(t('toasts.mediaDeleted'));
    } catch (error) {
      showError(error);
    }
  };

  const messageTabs = VARIANTS.map((n) => ({
    key: String(n),
    label: t('dialog.messageTab', { n }),
    children: (
      <Row gutter={12}>
        <Col xs={24} md={confirmation ? 12 : 24}>
          <Form.Item name={`message${n}`} label={t('fields.message', { n })}>
            <Input.TextArea rows={5} maxLength={4096} showCount placeholder={t('dialog.messagePlaceholder')} />
          </Form.Item>
        </Col>
        {confirmation ? (
          <Col xs={24} md={12}>
            <Form.Item name={`confirmationMessage${n}`} label={t('fields.confirmationMessage', { n })}>
              <Input.TextArea rows={5} maxLength={4096} showCount placeholder={t('dialog.confirmationPlaceholder')} />
            </Form.Item>
          </Col>
        ) : null}
      </Row>
    ),
  }));

  const connectionOptions = (connections.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.status})` }));
  const userOptions = [
    ...(campaign?.user && !users.data?.some((u) => u.id === campaign.user?.id) ? [campaign.user] : []),
    ...(users.data ?? []),
  ].map((u) => ({ value: u.id, label: u.name }));

  return (
    <Modal
      open={open}
      onCancel={onClose}
      width={900}
      title={campaign ? t('dialog.editTitle') : t('dialog.newTitle')}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t(editable ? 'dialog.cancel' : 'dialog.close')}
        </Button>,
        editable ? (
          <Button
            key="save"
            type="primary"
            loading={creating.isLoading || updating.isLoading || uploading.isLoading}
            onClick={() => form.submit()}
          >
            {t(campaign ? 'dialog.save' : 'dialog.create')}
          </Button>
        ) : null,
      ]}
    >
      {!editable ? <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('dialog.readOnly')} /> : null}
      <Form<FormValues> form={form} layout="vertical" disabled={!editable} onFinish={submit} initialValues={emptyValues()}>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('fields.name')}
              rules={[
                { required: true, message: t('validation.required') },
                { min: 2, message: t('validation.tooShort') },
                { max: 50, message: t('validation.tooLong') },
              ]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="whatsappId"
              label={t('fields.whatsapp')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Select
                options={connectionOptions}
                loading={connections.isLoading}
                placeholder={t('dialog.choose')}
                notFoundContent={t('dialog.noConnections')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="contactListId" label={t('fields.contactList')}>
              <Select
                allowClear
                options={(lists.data ?? []).map((list) => ({ value: list.id, label: `${list.name} (${list.contactsCount})` }))}
                placeholder={t('dialog.choose')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="tagListId" label={t('fields.tagList')}>
              <Select
                options={[
                  { value: null, label: t('dialog.noTag') },
                  ...(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name })),
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="scheduledAt" label={t('fields.scheduledAt')} extra={t('dialog.scheduledHint')}>
              <Input type="datetime-local" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="confirmation" label={t('fields.confirmation')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="statusTicket" label={t('fields.statusTicket')}>
              <Select
                options={(['closed', 'pending', 'open'] as const).map((status) => ({
                  value: status,
                  label: t(`ticketStatus.${status}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={4}>
            <Form.Item
              name="openTicket"
              label={t('fields.openTicket')}
              getValueProps={(value) => ({ checked: value === 'enabled' })}
              getValueFromEvent={(checked: boolean) => (checked ? 'enabled' : 'disabled')}
            >
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={4}>
            <Form.Item name="userId" label={t('fields.user')}>
              <Select
                allowClear
                showSearch
                filterOption={false}
                disabled={!editable || openTicket !== 'enabled'}
                onSearch={setUserSearch}
                options={userOptions}
                notFoundContent={userSearch.trim().length < USER_SEARCH_MIN ? t('dialog.typeToSearch') : t('dialog.noUsers')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={4}>
            <Form.Item
              name="queueId"
              label={t('fields.queue')}
              dependencies={['userId']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_rule, value) =>
                    getFieldValue('openTicket') === 'enabled' && getFieldValue('userId') && !value
                      ? Promise.reject(new Error(t('validation.queueRequired')))
                      : Promise.resolve(),
                }),
              ]}
            >
              <Select
                allowClear
                disabled={!editable || openTicket !== 'enabled'}
                options={(queues.data ?? []).map((queue) => ({ value: queue.id, label: queue.name }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Paragraph type="secondary">{t('dialog.variablesHint')}</Typography.Paragraph>
        <Tabs items={messageTabs} onChange={(key) => setPreviewVariant(Number(key))} />
      </Form>

      <Card size="small" title={t('dialog.previewTitle')} style={{ marginBottom: 12 }} data-testid="campaign-preview">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Select
            style={{ width: '100%' }}
            placeholder={t('dialog.previewRecipient')}
            value={sample?.id}
            onChange={setPreviewItem}
            options={(recipients.data?.contacts ?? []).map((item) => ({
              value: item.id,
              label: `${item.name} — ${item.number}`,
            }))}
            notFoundContent={t('dialog.previewNoList')}
          />
          {confirmation && previewText('confirmationMessage') ? (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
              <Typography.Text type="secondary">{t('dialog.previewConfirmation')} </Typography.Text>
              {previewText('confirmationMessage')}
            </Typography.Paragraph>
          ) : null}
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
            {previewText('message') ?? (
              <Typography.Text type="secondary">{t('dialog.previewEmpty', { n: previewVariant })}</Typography.Text>
            )}
          </Typography.Paragraph>
        </Space>
      </Card>

      <Space wrap>
        {campaign?.mediaName ? (
          <>
            <a href={campaign.mediaUrl ?? undefined} target="_blank" rel="noreferrer">
              <PaperClipOutlined /> {campaign.mediaName}
            </a>
            {editable ? (
              <Button size="small" danger icon={<DeleteOutlined />} onClick={deleteMedia} aria-label={t('dialog.deleteMedia')}>
                {t('dialog.deleteMedia')}
              </Button>
            ) : null}
          </>
        ) : null}
        {editable ? (
          <Upload
            maxCount={1}
            beforeUpload={(file) => {
              setPendingFile(file);
              return false;
            }}
            onRemove={() => setPendingFile(null)}
            fileList={pendingFile ? [{ uid: '1', name: pendingFile.name, status: 'done' }] : []}
          >
            <Button icon={<PaperClipOutlined />}>{t(campaign?.mediaName ? 'dialog.replaceMedia' : 'dialog.attach')}</Button>
          </Upload>
        ) : null}
      </Space>
    </Modal>
  );
}
