import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, List, Popconfirm, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { AccessDenied, useNarrowScreen } from '../team/shared';
import { type QueueRow, useDeleteAdminQueueMutation, useListAdminQueuesQuery } from './api';
import { QueueDialog } from './QueueDialog';

/** Queues (/queues, docs/product/administration.md#screens-and-routes): id, name, colour, order, greeting, actions. Denied to profile user. */
export function QueuesPage() {
  const session = useSession();
  if (session && session.profile !== 'admin' && !session.super) return <AccessDenied />;
  return <QueuesTable />;
}

function QueuesTable() {
  const { t } = useTranslation('admin');
  const narrow = useNarrowScreen();
  const { data: queues = [], isLoading, error } = useListAdminQueuesQuery();
  const [deleteQueue] = useDeleteAdminQueueMutation();
  const [dialog, setDialog] = useState<{ open: boolean; queueId: number | null }>({ open: false, queueId: null });

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const remove = async (queue: QueueRow) => {
    try {
      await deleteQueue(queue.id).unwrap();
      toast.success(t('queues.toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const actions = (queue: QueueRow) => (
    <Space size={4}>
      <Tooltip title={t('queues.actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={`${t('queues.actions.edit')} ${queue.name}`}
          onClick={() => setDialog({ open: true, queueId: queue.id })}
        />
      </Tooltip>
      <Popconfirm
        title={t('queues.confirmDelete.title', { name: queue.name })}
        description={t('queues.confirmDelete.description')}
        okText={t('queues.confirmDelete.ok')}
        cancelText={t('queues.confirmDelete.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => remove(queue)}
      >
        <Tooltip title={t('queues.actions.delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={`${t('queues.actions.delete')} ${queue.name}`} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );

  const swatch = (color: string) => (
    <Tag color={color} style={{ minWidth: 72, textAlign: 'center' }}>
      {color}
    </Tag>
  );

  const columns: ColumnsType<QueueRow> = [
    { key: 'id', title: t('queues.fields.id'), dataIndex: 'id', width: 80, align: 'center' },
    { key: 'name', title: t('queues.fields.name'), dataIndex: 'name' },
    { key: 'color', title: t('queues.fields.color'), align: 'center', width: 120, render: (_v, queue) => swatch(queue.color) },
    { key: 'order', title: t('queues.fields.order'), dataIndex: 'orderQueue', align: 'center', width: 100 },
    {
      key: 'greeting',
      title: t('queues.fields.greeting'),
      render: (_v, queue) => (
        <Typography.Text ellipsis={{ tooltip: queue.greetingMessage }} style={{ maxWidth: 360 }}>
          {queue.greetingMessage}
        </Typography.Text>
      ),
    },
    { key: 'actions', title: t('queues.fields.actions'), align: 'center', width: 120, render: (_v, queue) => actions(queue) },
  ];

  const empty = <Empty description={t('queues.empty')} />;

  return (
    <Card
      title={t('queues.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, queueId: null })}>
          {t('queues.add')}
        </Button>
      }
    >
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : narrow ? (
        <List
          dataSource={queues}
          locale={{ emptyText: empty }}
          renderItem={(queue) => (
            <List.Item actions={[actions(queue)]}>
              <List.Item.Meta
                title={
                  <Space>
                    {swatch(queue.color)}
                    {queue.name}
                  </Space>
                }
                description={queue.greetingMessage}
              />
            </List.Item>
          )}
        />
      ) : (
        <Table<QueueRow> rowKey="id" columns={columns} dataSource={queues} pagination={false} locale={{ emptyText: empty }} />
      )}
      <QueueDialog open={dialog.open} queueId={dialog.queueId} onClose={() => setDialog({ open: false, queueId: null })} />
    </Card>
  );
}
