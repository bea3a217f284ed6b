import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Can, showError, toast, useNarrowScreen, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Badge,
  Button,
  Card,
  Empty,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import {
  useConnectionChoicesQuery,
  useCreateFlowCampaignMutation,
  useDeleteFlowCampaignMutation,
  useFlowCampaignsQuery,
  useFlowsQuery,
  useUpdateFlowCampaignMutation,
} from '../api';
import { IntegrationsGuard, PageHeader } from '../components/common';
import type { FlowCampaign, FlowCampaignBody } from '../types';

/** Phrase campaigns (/phrase-lists, docs/product/automation.md#phrase-campaigns). */
export function PhraseListsPage() {
  return (
    <IntegrationsGuard>
      <PhraseLists />
    </IntegrationsGuard>
  );
}

function StatusTag({ active }: { active: boolean }) {
  const { t } = useTranslation('flowbuilder');
  return <Tag color={active ? 'green' : 'default'}>{t(active ? 'phrases.active' : 'phrases.inactive')}</Tag>;
}

function PhraseLists() {
  const { t } = useTranslation('flowbuilder');
  const narrow = useNarrowScreen();
  const { data, isLoading, error } = useFlowCampaignsQuery();
  const [remove] = useDeleteFlowCampaignMutation();
  const [editing, setEditing] = useState<{ open: boolean; campaign: FlowCampaign | null }>({ open: false, campaign: null });
  useEffect(() => {
    if (error) showError(error);
  }, [error]);
  const actions = (campaign: FlowCampaign) => (
    <Space size={2}>
      <Tooltip title={t('actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => setEditing({ open: true, campaign })}
        />
      </Tooltip>
      <Can permission="contacts-page:deleteContact">
        <Popconfirm
          title={t('phrases.confirmDelete', { name: campaign.name })}
          okText={t('actions.confirm')}
          cancelText={t('actions.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={async () => {
            try {
              await remove(campaign.id).unwrap();
              toast.success(t('phrases.deleted'));
            } catch (failure) {
              showError(failure);
            }
          }}
        >
          <Tooltip title={t('actions.delete')}>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
          </Tooltip>
        </Popconfirm>
      </Can>
    </Space>
  );
  const columns: ColumnsType<FlowCampaign> = [
    { key: 'name', title: t('phrases.name'), dataIndex: 'name' },
    { key: 'status', title: t('phrases.status'), width: 140, render: (_v, row) => <StatusTag active={row.status} /> },
    { key: 'actions', title: t('fields.actions'), align: 'center', width: 120, render: (_v, row) => actions(row) },
  ];
  const rows = data?.flow ?? [];
  const empty = <Empty description={t('phrases.empty')} />;
  return (
    <Card>
      <PageHeader
        title={t('phrases.title')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, campaign: null })}>
            {t('phrases.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : narrow ? (
        <List<FlowCampaign>
          dataSource={rows}
          locale={{ emptyText: empty }}
          renderItem={(row) => (
            <List.Item actions={[actions(row)]}>
              <List.Item.Meta title={row.name} description={<StatusTag active={row.status} />} />
            </List.Item>
          )}
        />
      ) : (
        <Table<FlowCampaign>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: empty }}
        />
      )}
      <PhraseDialog open={editing.open} campaign={editing.campaign} onClose={() => setEditing({ open: false, campaign: null })} />
    </Card>
  );
}

/** New or edit phrase campaign (docs/product/automation.md#phrase-campaigns): name, flow, connection and phrase required. */
function PhraseDialog({ open, campaign, onClose }: { open: boolean; campaign: FlowCampaign | null; onClose(): void }) {
  const { t } = useTranslation('flowbuilder');
  const [form] = Form.useForm<FlowCampaignBody>();
  const [flowSearch, setFlowSearch] = useState('');
  const flows = useFlowsQuery(flowSearch, { skip: !open });
  const connections = useConnectionChoicesQuery(undefined, { skip: !open });
  const [create, creating] = useCreateFlowCampaignMutation();
  const [update, updating] = useUpdateFlowCampaignMutation();
  useEffect(() => {
    if (!open) return;
    if (campaign) form.setFieldsValue({ ...campaign, whatsappId: campaign.whatsappId ?? undefined });
    else form.setFieldsValue({ name: '', phrase: '', status: true, flowId: undefined, whatsappId: undefined });
  }, [open, campaign, form]);
  const submit = async (values: FlowCampaignBody) => {
    try {
      if (campaign) await update({ ...values, id: campaign.id }).unwrap();
      else await create(values).unwrap();
      toast.success(t(campaign ? 'phrases.updated' : 'phrases.created'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  return (
    <Modal
      open={open}
      title={t(campaign ? 'phrases.editTitle' : 'phrases.newTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t(campaign ? 'phrases.save' : 'phrases.create')}
      cancelText={t('actions.cancel')}
      confirmLoading={creating.isLoading || updating.isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('phrases.triggerName')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="flowId" label={t('phrases.flow')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setFlowSearch}
            loading={flows.isFetching}
            options={(flows.data?.flows ?? []).map((flow) => ({ value: flow.id, label: flow.name }))}
            notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('phrases.noFlows')} />}
          />
        </Form.Item>
        <Form.Item
          name="whatsappId"
          label={t('phrases.connection')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Select
            placeholder={t('phrases.connectionPlaceholder')}
            loading={connections.isFetching}
            options={(connections.data ?? []).map((connection) => ({
              value: connection.id,
              label: (
                <Space>
                  {connection.name}
                  <Badge status={connection.status === 'CONNECTED' ? 'success' : 'default'} text={connection.status} />
                </Space>
              ),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="phrase"
          label={t('phrases.phrase')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="status" label={t('phrases.status')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
