import { CheckCircleFilled, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { showError, toast, useNarrowScreen, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Flex, Popconfirm, Skeleton, Space, Table, Tooltip, Typography } from 'antd';
import { useDeleteConnectionMutation, useImportProgressQuery } from '../api';
import { formatDateTime } from '../format';
import type { Connection } from '../types';
import { ChannelIcon } from './ChannelIcon';
import { ConnectionStatusTag, SessionErrorNote } from './ConnectionStatusTag';
import { ImportProgressNote } from './ImportProgressNote';
import { SessionActions } from './SessionActions';

/** Props of the connections list. */
export interface ConnectionsListProps {
  connections: Connection[] | undefined;
  /** The session column (docs/product/administration.md#screens-and-routes: admins). */
  showSession: boolean;
  /** Edit and delete (admins). */
  mayEdit: boolean;
  onEdit(connection: Connection): void;
  onShowQr(id: number): void;
  /** Opens the link dialog on the phone-number way, showing the pairing code (status PAIRING). */
  onShowPairingCode(id: number): void;
}

/**
 * The connections of a company (docs/product/administration.md#screens-and-routes): channel, name, number, status, session, last update,
 * default, actions; a table on wide screens and cards under 600 px. Deleting asks first. Under the status:
 * why the session stopped by itself (`sessionError`) and the message import under way, if any.
 */
export function ConnectionsList({
  connections,
  showSession,
  mayEdit,
  onEdit,
  onShowQr,
  onShowPairingCode,
}: ConnectionsListProps) {
  const { t } = useTranslation('channels');
  const narrow = useNarrowScreen();
  const [deleteConnection] = useDeleteConnectionMutation();
  const { data: imports } = useImportProgressQuery();

  if (connections === undefined) return <Skeleton active paragraph={{ rows: 5 }} data-testid="connections-skeleton" />;
  if (connections.length === 0) return <Empty description={t('page.empty')} />;

  const remove = async (id: number) => {
    try {
      await deleteConnection(id).unwrap();
      toast.success(t('toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const defaultMark = (connection: Connection) =>
    connection.isDefault ? (
      <CheckCircleFilled style={{ color: '#52c41a' }} role="img" aria-label={t('columns.default')} title={t('columns.default')} />
    ) : null;

  const sessionActions = (connection: Connection) => (
    <SessionActions connection={connection} onShowQr={onShowQr} onShowPairingCode={onShowPairingCode} />
  );

  /** What the status tag alone doesn't say: why the session stopped, how far an import went. */
  const statusNotes = (connection: Connection) =>
    connection.sessionError || imports?.[connection.id] ? (
      <Flex vertical gap={4}>
        <SessionErrorNote sessionError={connection.sessionError} />
        <ImportProgressNote progress={imports?.[connection.id]} />
      </Flex>
    ) : null;

  const editButtons = (connection: Connection) => (
    <Space size={4}>
      <Tooltip title={t('actions.edit')}>
        <Button
          size="small"
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => onEdit(connection)}
        />
      </Tooltip>
      <Popconfirm
        title={t('confirm.deleteTitle', { name: connection.name })}
        description={t('confirm.delete')}
        okText={t('confirm.yes')}
        cancelText={t('confirm.no')}
        okButtonProps={{ danger: true }}
        onConfirm={() => remove(connection.id)}
      >
        <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
      </Popconfirm>
    </Space>
  );

  if (narrow) {
    return (
      <Flex vertical gap={8}>
        {connections.map((connection) => (
          <Card key={connection.id} size="small" data-testid={`connection-${connection.id}`}>
            <Flex align="center" gap={8} wrap>
              <ChannelIcon channel={connection.channel} />
              <Typography.Text strong>{connection.name}</Typography.Text>
              {defaultMark(connection)}
              <span style={{ flex: 1 }} />
              <ConnectionStatusTag status={connection.status} sessionError={connection.sessionError} />
            </Flex>
            {connection.number ? <Typography.Text type="secondary">{connection.number}</Typography.Text> : null}
            {statusNotes(connection)}
            <Flex justify="space-between" align="center" wrap gap={8} style={{ marginTop: 8 }}>
              {showSession ? sessionActions(connection) : <span />}
              {mayEdit ? editButtons(connection) : null}
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('columns.updatedAt')}: {formatDateTime(connection.updatedAt)}
            </Typography.Text>
          </Card>
        ))}
      </Flex>
    );
  }

  return (
    <Table<Connection>
      rowKey="id"
      size="middle"
      pagination={false}
      scroll={{ x: true }}
      dataSource={connections}
      onRow={(connection) => ({ 'data-testid': `connection-${connection.id}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        {
          key: 'channel',
          title: t('columns.channel'),
          align: 'center',
          render: (_v, row) => <ChannelIcon channel={row.channel} />,
        },
        { key: 'name', title: t('columns.name'), dataIndex: 'name' },
        { key: 'number', title: t('columns.number'), render: (_v, row) => row.number || '—' },
        {
          key: 'status',
          title: t('columns.status'),
          render: (_v, row) => (
            <Flex vertical gap={4} align="flex-start">
              <ConnectionStatusTag status={row.status} sessionError={row.sessionError} />
              {statusNotes(row)}
            </Flex>
          ),
        },
        ...(showSession
          ? [
              {
                key: 'session',
                title: t('columns.session'),
                render: (_v: unknown, row: Connection) => sessionActions(row),
              },
            ]
          : []),
        { key: 'updatedAt', title: t('columns.updatedAt'), render: (_v, row) => formatDateTime(row.updatedAt) },
        { key: 'default', title: t('columns.default'), align: 'center', render: (_v, row) => defaultMark(row) },
        ...(mayEdit
          ? [
              {
                key: 'actions',
                title: t('columns.actions'),
                align: 'center' as const,
                render: (_v: unknown, row: Connection) => editButtons(row),
              },
            ]
          : []),
      ]}
    />
  );
}
