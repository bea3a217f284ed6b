import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Input, Modal, Switch, Typography, Upload } from 'antd';
import { useState } from 'react';
import type { QuickMessage } from '../../../shared/types';
import {
  type QuickMessageBody,
  useCreateQuickMessageMutation,
  useDeleteQuickMessageMediaMutation,
  useUpdateQuickMessageMutation,
  useUploadQuickMessageMediaMutation,
} from '../api/quick-messages';
import { normalizeVisibility } from './permissions';
import { normalizeShortcode } from './shortcode';

export interface QuickMessageDialogProps {
  open: boolean;
  /** The message to edit; null adds one. */
  record: QuickMessage | null;
  onClose(): void;
}

interface QuickMessageFormValues {
  shortcode: string;
  message: string;
  visao: boolean;
  geral: boolean;
  status: boolean;
}

/** The quick-message dialog (docs/product/automation.md#entities): shortcode, message, visibility, general, status, attachment. */
export function QuickMessageDialog({ open, record, onClose }: QuickMessageDialogProps) {
  const { t } = useTranslation('inbox');
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      title={t(record ? 'quickMessages.dialog.editTitle' : 'quickMessages.dialog.addTitle')}
      width={560}
    >
      <QuickMessageForm key={record?.id ?? 'new'} record={record} onClose={onClose} />
    </Modal>
  );
}

function QuickMessageForm({ record, onClose }: { record: QuickMessage | null; onClose(): void }) {
  const { t } = useTranslation('inbox');
  const [form] = Form.useForm<QuickMessageFormValues>();
  const visao = Form.useWatch('visao', form) ?? record?.visao ?? true;
  const [file, setFile] = useState<File | null>(null);
  const [removeExisting, setRemoveExisting] = useState(false);
  const [saving, setSaving] = useState(false);
  const [create] = useCreateQuickMessageMutation();
  const [update] = useUpdateQuickMessageMutation();
  const [upload] = useUploadQuickMessageMediaMutation();
  const [deleteMedia] = useDeleteQuickMessageMediaMutation();
  const existingMedia = record?.mediaName && !removeExisting ? record.mediaName : null;

  const submit = async (values: QuickMessageFormValues) => {
    const body: QuickMessageBody = {
      shortcode: normalizeShortcode(values.shortcode),
      message: values.message ?? '',
      status: values.status,
      ...normalizeVisibility({ visao: values.visao, geral: values.geral }),
    };
    setSaving(true);
    let saved: QuickMessage;
    try {
      saved = record ? await update({ id: record.id, ...body }).unwrap() : await create(body).unwrap();
    } catch (error) {
      showError(error);
      setSaving(false);
      return;
    }
    try {
      // the attachment is sent after the message exists (POST /quick-messages/:id/media-upload)
      if (file) await upload({ id: saved.id, file }).unwrap();
      else if (removeExisting && record?.mediaName) await deleteMedia(saved.id).unwrap();
      toast.success(t('quickMessages.toasts.saved'));
    } catch (error) {
      showError(error);
      toast.warning(t('quickMessages.toasts.savedWithoutMedia'));
    }
    setSaving(false);
    onClose();
  };

  return (
    <Form<QuickMessageFormValues>
      form={form}
      layout="vertical"
      onFinish={submit}
      initialValues={{
        shortcode: record?.shortcode ?? '',
        message: record?.message ?? '',
        visao: record?.visao ?? true,
        geral: record?.geral ?? false,
        status: record?.status ?? true,
      }}
      onValuesChange={(changed: Partial<QuickMessageFormValues>) => {
        if (changed.visao === false) form.setFieldValue('geral', false);
      }}
    >
      <Form.Item
        name="shortcode"
        label={t('quickMessages.fields.shortcode')}
        required
        rules={[
          {
            validator: async (_rule, value: string) => {
              if (!normalizeShortcode(value)) throw new Error(t('quickMessages.validation.required'));
            },
          },
        ]}
      >
        <Input autoFocus autoComplete="off" prefix="/" />
      </Form.Item>
      <Form.Item name="message" label={t('quickMessages.fields.message')}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} />
      </Form.Item>
      <Flex wrap gap={24}>
        <Form.Item
          name="visao"
          label={t('quickMessages.fields.visao')}
          valuePropName="checked"
          tooltip={t('quickMessages.dialog.visaoHelp')}
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="geral"
          label={t('quickMessages.fields.geral')}
          valuePropName="checked"
          tooltip={t('quickMessages.dialog.geralHelp')}
        >
          <Switch disabled={!visao} />
        </Form.Item>
        <Form.Item name="status" label={t('quickMessages.fields.status')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Flex>

      <Typography.Text strong>{t('quickMessages.fields.attachment')}</Typography.Text>
      <Flex wrap gap={8} align="center" style={{ marginTop: 8 }}>
        {file || existingMedia ? (
          <>
            <PaperClipOutlined />
            <Typography.Text ellipsis style={{ maxWidth: 300 }}>
              {file?.name ?? existingMedia}
            </Typography.Text>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('quickMessages.dialog.removeAttachment')}
              title={t('quickMessages.dialog.removeAttachment')}
              onClick={() => {
                if (file) setFile(null);
                else setRemoveExisting(true);
              }}
            />
          </>
        ) : (
          <Typography.Text type="secondary">{t('quickMessages.noAttachment')}</Typography.Text>
        )}
        <Upload
          showUploadList={false}
          multiple={false}
          beforeUpload={(picked) => {
            setFile(picked);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />}>
            {t(file || existingMedia ? 'quickMessages.dialog.replaceAttachment' : 'quickMessages.dialog.attach')}
          </Button>
        </Upload>
      </Flex>

      <Flex justify="end" gap={8} style={{ marginTop: 24 }}>
        <Button onClick={onClose}>{t('quickMessages.dialog.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t(record ? 'quickMessages.dialog.save' : 'quickMessages.dialog.add')}
        </Button>
      </Flex>
    </Form>
  );
}
