import { DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined, UserOutlined } from '@ant-design/icons';
import { errorCodeOf, showError, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Avatar,
  Badge,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  List,
  Popconfirm,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { type AdminUser, useDeleteAdminUserMutation, usePageAdminUsersQuery } from './api';
import { AccessDenied, InfiniteScroll, useNarrowScreen, usePagedSearch } from './shared';
import { UserDialog } from './UserDialog';

/** Users (/users, docs/product/administration.md#screens-and-routes): admins only; a profile user sees the access-denied view. */
export function UsersPage() {
  const session = useSession();
  if (!session) return null;
  if (session.profile !== 'admin' && !session.super) return <AccessDenied />;
  return <UsersList currentUserId={session.id} />;
}

function UsersList({ currentUserId }: { currentUserId: number }) {
  const { t } = useTranslation('admin');
  const narrow = useNarrowScreen();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = usePageAdminUsersQuery({ searchParam, pageNumber });
  const [deleteUser] = useDeleteAdminUserMutation();
  const [dialog, setDialog] = useState<{ open: boolean; userId: number | null }>({ open: false, userId: null });

  useEffect(() => {
    if (!error) return;
    // docs/product/administration.md#errors: a failed load (HTTP 500) has its own message
    if ((error as { status?: unknown }).status === 500 || errorCodeOf(error) === 'ERR_INTERNAL')
      toast.error(t('users.loadFailed'));
    else showError(error);
  }, [error, t]);

  const remove = async (user: AdminUser) => {
    try {
      await deleteUser(user.id).unwrap();
      toast.success(t('users.toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const status = (user: AdminUser) => (
    <Badge status={user.online ? 'success' : 'default'} text={t(user.online ? 'users.status.online' : 'users.status.offline')} />
  );
  const avatar = (user: AdminUser) => <Avatar src={user.profileImage ?? undefined} icon={<UserOutlined />} alt={user.name} />;
  const profile = (user: AdminUser) => (
    <Space size={4} wrap>
      <Tag color={user.profile === 'admin' ? 'blue' : undefined}>{t(`users.profiles.${user.profile}`)}</Tag>
      {user.super ? <Tag color="gold">{t('users.super')}</Tag> : null}
    </Space>
  );
  const actions = (user: AdminUser) => (
    <Space size={4}>
      <Tooltip title={t('users.actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={`${t('users.actions.edit')} ${user.name}`}
          onClick={() => setDialog({ open: true, userId: user.id })}
        />
      </Tooltip>
      {user.id === currentUserId ? null : (
        <Popconfirm
          title={t('users.confirmDelete.title', { name: user.name })}
          description={t('users.confirmDelete.description')}
          okText={t('users.confirmDelete.ok')}
          cancelText={t('users.confirmDelete.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(user)}
        >
          <Tooltip title={t('users.actions.delete')}>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={`${t('users.actions.delete')} ${user.name}`} />
          </Tooltip>
        </Popconfirm>
      )}
    </Space>
  );

  const columns: ColumnsType<AdminUser> = [
    { key: 'id', title: t('users.columns.id'), dataIndex: 'id', width: 70, align: 'center' },
    { key: 'status', title: t('users.columns.status'), width: 110, render: (_value, user) => status(user) },
    { key: 'avatar', title: t('users.columns.avatar'), width: 80, align: 'center', render: (_value, user) => avatar(user) },
    { key: 'name', title: t('users.columns.name'), dataIndex: 'name' },
    { key: 'email', title: t('users.columns.email'), dataIndex: 'email' },
    { key: 'profile', title: t('users.columns.profile'), width: 150, render: (_value, user) => profile(user) },
    { key: 'startWork', title: t('users.columns.startWork'), dataIndex: 'startWork', width: 110, align: 'center' },
    { key: 'endWork', title: t('users.columns.endWork'), dataIndex: 'endWork', width: 110, align: 'center' },
    { key: 'actions', title: t('users.columns.actions'), width: 110, align: 'center', render: (_value, user) => actions(user) },
  ];

  const users = data?.users ?? [];
  const empty = <Empty description={t(searchParam ? 'users.emptySearch' : 'users.empty')} />;

  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <Flex align="baseline" gap={8}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('users.title')}
          </Typography.Title>
          {data ? <Typography.Text type="secondary">{t('users.count', { count: data.count })}</Typography.Text> : null}
        </Flex>
        <Flex wrap gap={8} align="center" style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
          <Input
            allowClear
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={t('users.searchPlaceholder')}
            aria-label={t('users.searchPlaceholder')}
            prefix={<SearchOutlined />}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, userId: null })}>
            {t('users.add')}
          </Button>
        </Flex>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<AdminUser>
              dataSource={users}
              locale={{ emptyText: empty }}
              renderItem={(user) => (
                <List.Item actions={[actions(user)]}>
                  <List.Item.Meta
                    avatar={
                      <Badge dot status={user.online ? 'success' : 'default'} offset={[-4, 28]}>
                        {avatar(user)}
                      </Badge>
                    }
                    title={
                      <Space size={6} wrap>
                        {user.name}
                        {profile(user)}
                      </Space>
                    }
                    description={`${user.email} · ${user.startWork}–${user.endWork}`}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<AdminUser>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={users}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      <UserDialog open={dialog.open} userId={dialog.userId} onClose={() => setDialog({ open: false, userId: null })} />
    </Card>
  );
}
