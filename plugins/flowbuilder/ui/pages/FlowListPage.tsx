import { CopyOutlined, DeleteOutlined, EditOutlined, MoreOutlined, NodeIndexOutlined, PlusOutlined } from '@ant-design/icons';
import { InfiniteScroll, showError, toast, useNarrowScreen, usePagedSearch, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Dropdown, Empty, Form, Input, List, Modal, Skeleton, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  useCreateFlowMutation,
  useDeleteFlowMutation,
  useDuplicateFlowMutation,
  useFlowListQuery,
  useRenameFlowMutation,
} from '../api';
import { IntegrationsGuard, PageHeader } from '../components/common';
import { FLOW_LIMITS } from '../flows/model';
import type { Flow } from '../types';

/** The flow list (/flowbuilders, docs/product/automation.md#screens-and-routes). */
export function FlowListPage() {
  return (
    <IntegrationsGuard>
      <Flows />
    </IntegrationsGuard>
  );
}

type Confirming = { kind: 'delete' | 'duplicate'; flow: Flow } | null;

function Flows() {
  const { t } = useTranslation('flowbuilder');
  const narrow = useNarrowScreen();
  const navigate = useNavigate();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = useFlowListQuery({ searchParam, pageNumber });
  const [remove, removing] = useDeleteFlowMutation();
  const [duplicate, duplicating] = useDuplicateFlowMutation();
  const [naming, setNaming] = useState<{ open: boolean; flow: Flow | null }>({ open: false, flow: null });
  const [confirming, setConfirming] = useState<Confirming>(null);
  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const open = (flow: Flow) => navigate(`/flowbuilder/${flow.id}`);
  const confirm = async () => {
    if (!confirming) return;
    try {
      if (confirming.kind === 'delete') {
        await remove(confirming.flow.id).unwrap();
        toast.success(t('flows.deleted'));
      } else {
        await duplicate(confirming.flow.id).unwrap();
        toast.success(t('flows.duplicated'));
      }
      setConfirming(null);
    } catch (failure) {
      showError(failure);
    }
  };

  const actions = (flow: Flow) => (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'rename', icon: <EditOutlined />, label: t('flows.rename') },
          { key: 'edit', icon: <NodeIndexOutlined />, label: t('flows.editFlow') },
          { key: 'duplicate', icon: <CopyOutlined />, label: t('flows.duplicate') },
          { key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('actions.delete') },
        ],
        onClick: ({ key }) => {
          if (key === 'rename') setNaming({ open: true, flow });
          else if (key === 'edit') open(flow);
          else setConfirming({ kind: key as 'delete' | 'duplicate', flow });
        },
      }}
    >
      <Button type="text" icon={<MoreOutlined />} aria-label={t('flows.actionsOf', { name: flow.name })} />
    </Dropdown>
  );
  const status = (flow: Flow) => (flow.active ? <Tag color="green">{t('flows.active')}</Tag> : <Tag>{t('flows.inactive')}</Tag>);
  const clickable = (flow: Flow) => ({ onClick: () => open(flow), style: { cursor: 'pointer' } });
  const columns: ColumnsType<Flow> = [
    { key: 'name', title: t('fields.name'), dataIndex: 'name', onCell: clickable },
    { key: 'status', title: t('flows.status'), width: 140, render: (_v, row) => status(row), onCell: clickable },
    { key: 'actions', title: t('fields.actions'), align: 'center', width: 100, render: (_v, row) => actions(row) },
  ];
  const rows = data?.flows ?? [];
  const empty = <Empty description={t(searchParam ? 'flows.emptySearch' : 'flows.empty')} />;
  return (
    <Card>
      <PageHeader
        title={t('flows.title')}
        search={typed}
        onSearch={setTyped}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setNaming({ open: true, flow: null })}>
            {t('flows.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<Flow>
              dataSource={rows}
              locale={{ emptyText: empty }}
              renderItem={(row) => (
                <List.Item actions={[actions(row)]}>
                  <List.Item.Meta
                    title={
                      <Link to={`/flowbuilder/${row.id}`} style={{ display: 'block' }}>
                        {row.name}
                      </Link>
                    }
                    description={status(row)}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<Flow>
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
      <NameDialog open={naming.open} flow={naming.flow} onClose={() => setNaming({ open: false, flow: null })} onCreated={open} />
      <Modal
        open={confirming !== null}
        title={t(confirming?.kind === 'duplicate' ? 'flows.duplicate' : 'actions.delete')}
        okText={t(confirming?.kind === 'duplicate' ? 'flows.duplicate' : 'actions.delete')}
        okButtonProps={{ danger: confirming?.kind === 'delete' }}
        cancelText={t('actions.cancel')}
        confirmLoading={removing.isLoading || duplicating.isLoading}
        onOk={confirm}
        onCancel={() => setConfirming(null)}
      >
        {t(confirming?.kind === 'duplicate' ? 'flows.confirmDuplicate' : 'flows.confirmDelete')}
      </Modal>
    </Card>
  );
}

/** Add a flow or rename one: the name is 2 to 50 characters, with the documented texts. */
export function NameDialog({
  open,
  flow,
  onClose,
  onCreated,
}: {
  open: boolean;
  flow: Flow | null;
  onClose(): void;
  onCreated(flow: Flow): void;
}) {
  const { t } = useTranslation('flowbuilder');
  const [form] = Form.useForm<{ name: string }>();
  const [create, creating] = useCreateFlowMutation();
  const [rename, renaming] = useRenameFlowMutation();
  const submit = async ({ name }: { name: string }) => {
    try {
      if (flow) {
        await rename({ flowId: flow.id, name: name.trim() }).unwrap();
        toast.success(t('flows.renamed'));
      } else {
        const created = await create({ name: name.trim() }).unwrap();
        toast.success(t('flows.created'));
        onCreated(created);
      }
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  return (
    <Modal
      open={open}
      title={t(flow ? 'flows.renameTitle' : 'flows.newTitle')}
      onOk={() => form.submit()}
      onCancel={onClose}
      okText={t(flow ? 'actions.save' : 'flows.create')}
      cancelText={t('actions.cancel')}
      confirmLoading={creating.isLoading || renaming.isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ name: flow?.name ?? '' }}>
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[
            { required: true, whitespace: true, message: t('validation.flowName') },
            { min: FLOW_LIMITS.nameMin, message: t('validation.flowTooShort') },
            { max: FLOW_LIMITS.nameMax, message: t('validation.flowTooLong') },
          ]}
        >
          <Input autoFocus maxLength={FLOW_LIMITS.nameMax + 10} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
