import { ApiOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { InfiniteScroll, showError, toast, useNarrowScreen, usePagedSearch, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Avatar,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Table,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import {
  useCreateQueueIntegrationMutation,
  useDeleteQueueIntegrationMutation,
  useFlowsQuery,
  useQueueIntegrationsQuery,
  useTestSessionMutation,
  useUpdateQueueIntegrationMutation,
} from '../api';
import { IntegrationsGuard, PageHeader } from '../components/common';
import {
  DIALOGFLOW_LANGUAGES,
  INTEGRATION_TYPES,
  type IntegrationBody,
  type IntegrationType,
  type QueueIntegration,
} from '../types';

/** The type's label as the product names it, and a colour for its logo. */
const TYPE_LOOK: Record<IntegrationType, { label: string; color: string }> = {
  dialogflow: { label: 'DialogFlow', color: '#FF9800' },
  n8n: { label: 'N8N', color: '#EA4B71' },
  webhook: { label: 'WebHooks', color: '#1677FF' },
  typebot: { label: 'Typebot', color: '#0042DA' },
  flowbuilder: { label: 'Flowbuilder', color: '#52C41A' },
};

function TypeLogo({ type }: { type: IntegrationType }) {
  const look = TYPE_LOOK[type];
  return (
    <Tooltip title={look.label}>
      <Avatar style={{ background: look.color }} icon={<ApiOutlined />} aria-label={look.label} />
    </Tooltip>
  );
}

/** Queue integrations (/queue-integration, docs/product/automation.md#screens-and-routes). */
export function QueueIntegrationsPage() {
  return (
    <IntegrationsGuard>
      <Integrations />
    </IntegrationsGuard>
  );
}

function Integrations() {
  const { t } = useTranslation('flowbuilder');
  const narrow = useNarrowScreen();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = useQueueIntegrationsQuery({ searchParam, pageNumber });
  const [remove] = useDeleteQueueIntegrationMutation();
  const [editing, setEditing] = useState<{ open: boolean; integration: QueueIntegration | null }>({
    open: false,
    integration: null,
  });
  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const actions = (integration: QueueIntegration) => (
    <Space size={2}>
      <Tooltip title={t('actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => setEditing({ open: true, integration })}
        />
      </Tooltip>
      <Popconfirm
        title={t('integrations.confirmDelete', { name: integration.name })}
        okText={t('actions.confirm')}
        cancelText={t('actions.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={async () => {
          try {
            await remove(integration.id).unwrap();
            toast.success(t('integrations.deleted'));
          } catch (failure) {
            showError(failure);
          }
        }}
      >
        <Tooltip title={t('actions.delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );
  const columns: ColumnsType<QueueIntegration> = [
    { key: 'type', title: '', width: 56, render: (_v, row) => <TypeLogo type={row.type} /> },
    { key: 'id', title: t('fields.id'), dataIndex: 'id', width: 80 },
    { key: 'name', title: t('fields.name'), dataIndex: 'name' },
    { key: 'actions', title: t('fields.actions'), align: 'center', width: 120, render: (_v, row) => actions(row) },
  ];
  const rows = data?.queueIntegrations ?? [];
  const empty = <Empty description={t(searchParam ? 'integrations.emptySearch' : 'integrations.empty')} />;
  return (
    <Card>
      <PageHeader
        title={t('integrations.title')}
        search={typed}
        onSearch={setTyped}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, integration: null })}>
            {t('integrations.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<QueueIntegration>
              dataSource={rows}
              locale={{ emptyText: empty }}
              renderItem={(row) => (
                <List.Item actions={[actions(row)]}>
                  <List.Item.Meta
                    avatar={<TypeLogo type={row.type} />}
                    title={row.name}
                    description={`#${row.id} · ${TYPE_LOOK[row.type].label}`}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<QueueIntegration>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={rows}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      <IntegrationDialog
        open={editing.open}
        integration={editing.integration}
        onClose={() => setEditing({ open: false, integration: null })}
      />
    </Card>
  );
}

const EMPTY: IntegrationBody = {
  type: 'typebot',
  name: '',
  projectName: '',
  jsonContent: '',
  language: '',
  urlN8N: '',
  typebotDelayMessage: 1000,
  typebotExpires: 1,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotSlug: '',
  typebotUnknownMessage: '',
  flowId: null,
};

/** New or edit integration: the type decides the fields (docs/product/automation.md#entities, #validation-rules). */
function IntegrationDialog({
  open,
  integration,
  onClose,
}: {
  open: boolean;
  integration: QueueIntegration | null;
  onClose(): void;
}) {
  const { t } = useTranslation('flowbuilder');
  const [form] = Form.useForm<IntegrationBody>();
  const type = Form.useWatch('type', form) ?? 'typebot';
  const [create, creating] = useCreateQueueIntegrationMutation();
  const [update, updating] = useUpdateQueueIntegrationMutation();
  const [test, testing] = useTestSessionMutation();
  const [flowSearch, setFlowSearch] = useState('');
  // the company's flows, for the flow a flowbuilder integration starts (searched by name, as the phrase dialog's)
  const flows = useFlowsQuery(flowSearch, { skip: !open || type !== 'flowbuilder' });
  useEffect(() => {
    if (open) form.setFieldsValue(integration ? { ...EMPTY, ...integration, jsonContent: '' } : EMPTY);
  }, [open, integration, form]);
  const submit = async (values: IntegrationBody) => {
    const body = {
      ...EMPTY,
      ...values,
      projectName: values.type === 'typebot' ? values.name : values.projectName || values.name,
      flowId: values.type === 'flowbuilder' ? (values.flowId ?? null) : null,
    };
    try {
      if (integration) await update({ id: integration.id, body }).unwrap();
      else await create(body).unwrap();
      toast.success(t(integration ? 'integrations.updated' : 'integrations.created'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  const tryDialogflow = async () => {
    const values = form.getFieldsValue();
    try {
      const answer = await test({
        projectName: values.projectName,
        jsonContent: values.jsonContent || undefined,
        language: values.language,
        ...(integration && !values.jsonContent ? { integrationId: integration.id } : {}),
      }).unwrap();
      toast.success(t('integrations.testOk', { answer: answer.messages.join(' ') || '—' }));
    } catch (failure) {
      showError(failure);
    }
  };
  const needsUrl = type === 'n8n' || type === 'webhook' || type === 'typebot';
  return (
    <Modal
      open={open}
      title={t(integration ? 'integrations.editTitle' : 'integrations.newTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={creating.isLoading || updating.isLoading}
      destroyOnHidden
      width={640}
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={EMPTY}>
        <Form.Item name="type" label={t('fields.type')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select options={INTEGRATION_TYPES.map((value) => ({ value, label: TYPE_LOOK[value].label }))} />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            ...(type === 'typebot'
              ? [
                  { min: 2, message: t('validation.tooShort') },
                  { max: 50, message: t('validation.tooLong') },
                ]
              : []),
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        {type === 'dialogflow' ? (
          <>
            <Form.Item name="projectName" label={t('fields.projectName')}>
              <Input />
            </Form.Item>
            <Form.Item
              name="language"
              label={t('fields.language')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Select options={DIALOGFLOW_LANGUAGES.map((language) => ({ ...language }))} />
            </Form.Item>
            <Form.Item
              name="jsonContent"
              label={t('fields.jsonContent')}
              extra={integration?.hasJsonContent ? t('integrations.secretKept') : undefined}
              rules={integration?.hasJsonContent ? [] : [{ required: true, message: t('validation.required') }]}
            >
              <Input.TextArea rows={5} autoComplete="off" spellCheck={false} />
            </Form.Item>
            <Button onClick={tryDialogflow} loading={testing.isLoading} style={{ marginBottom: 16 }}>
              {t('integrations.test')}
            </Button>
          </>
        ) : null}
        {needsUrl ? (
          <Form.Item
            name="urlN8N"
            label={t('fields.url')}
            rules={[{ required: true, type: 'url', message: t('validation.url') }]}
          >
            <Input placeholder="https://" />
          </Form.Item>
        ) : null}
        {type === 'flowbuilder' ? (
          <Form.Item
            name="flowId"
            label={t('integrations.flow')}
            extra={t('integrations.flowHelp')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <Select
              showSearch
              filterOption={false}
              onSearch={setFlowSearch}
              placeholder={t('integrations.flowPlaceholder')}
              loading={flows.isFetching}
              options={(flows.data?.flows ?? []).map((flow) => ({ value: flow.id, label: flow.name }))}
              notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('phrases.noFlows')} />}
            />
          </Form.Item>
        ) : null}
        {type === 'typebot' ? (
          <>
            <Form.Item
              name="typebotSlug"
              label={t('fields.typebotSlug')}
              rules={[{ required: true, message: t('validation.required') }]}
            >
              <Input />
            </Form.Item>
            <Space wrap>
              <Form.Item name="typebotExpires" label={t('fields.typebotExpires')}>
                <InputNumber min={0} precision={0} />
              </Form.Item>
              <Form.Item name="typebotDelayMessage" label={t('fields.typebotDelayMessage')}>
                <InputNumber min={0} max={60000} step={100} precision={0} />
              </Form.Item>
              <Form.Item name="typebotKeywordFinish" label={t('fields.typebotKeywordFinish')}>
                <Input />
              </Form.Item>
              <Form.Item name="typebotKeywordRestart" label={t('fields.typebotKeywordRestart')}>
                <Input />
              </Form.Item>
            </Space>
            <Form.Item name="typebotUnknownMessage" label={t('fields.typebotUnknownMessage')}>
              <Input />
            </Form.Item>
            <Form.Item name="typebotRestartMessage" label={t('fields.typebotRestartMessage')}>
              <Input />
            </Form.Item>
          </>
        ) : null}
      </Form>
    </Modal>
  );
}
