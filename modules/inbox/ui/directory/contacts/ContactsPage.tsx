import {
  DeleteOutlined,
  EditOutlined,
  ImportOutlined,
  LockOutlined,
  PlusOutlined,
  UnlockOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { showError, toast, usePermission, useTranslation } from '@balcao/plugin-sdk/ui';
import { Avatar, Button, Card, Empty, List, Popconfirm, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Contact } from '../../../shared/types';
import { useBlockContactMutation, useDeleteContactMutation, useListContactsQuery } from '../api/contacts';
import { useNarrowScreen, usePagedSearch } from '../shared/hooks';
import { InfiniteScroll } from '../shared/InfiniteScroll';
import { PageHeader } from '../shared/PageHeader';
import { ChannelLabel } from './ChannelLabel';
import { ContactDialog } from './ContactDialog';

/** docs/product/tickets-and-inbox.md#validation: the contact search starts at 3 characters. */
export const CONTACT_SEARCH_MIN_CHARS = 3;

function ContactAvatar({ contact }: { contact: Contact }) {
  return (
    <Avatar src={contact.urlPicture ?? undefined} icon={contact.urlPicture ? undefined : <UserOutlined />} alt={contact.name}>
      {contact.name.charAt(0).toUpperCase()}
    </Avatar>
  );
}

/** Contacts (/contacts, docs/product/tickets-and-inbox.md#screens-and-routes and #calls-and-realtime-events): search, infinite list, add, edit, block, delete, import. */
export function ContactsPage() {
  const { t } = useTranslation('inbox');
  const navigate = useNavigate();
  const narrow = useNarrowScreen();
  const canDelete = usePermission('contacts-page:deleteContact');
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch(CONTACT_SEARCH_MIN_CHARS);
  const { data, isLoading, isFetching, error } = useListContactsQuery({ searchParam, pageNumber });
  const [dialog, setDialog] = useState<{ open: boolean; contactId: number | null }>({ open: false, contactId: null });
  const [blockContact] = useBlockContactMutation();
  const [deleteContact] = useDeleteContactMutation();

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const toggleBlock = async (contact: Contact) => {
    try {
      await blockContact({ id: contact.id, active: !contact.active }).unwrap();
      toast.success(t(contact.active ? 'contacts.toasts.blocked' : 'contacts.toasts.unblocked'));
    } catch (failure) {
      showError(failure);
    }
  };

  const remove = async (contact: Contact) => {
    try {
      await deleteContact(contact.id).unwrap();
      toast.success(t('contacts.toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const actions = (contact: Contact) => (
    <Space size={4}>
      <Tooltip title={t('contacts.actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('contacts.actions.edit')}
          onClick={() => setDialog({ open: true, contactId: contact.id })}
        />
      </Tooltip>
      <Tooltip title={t(contact.active ? 'contacts.actions.block' : 'contacts.actions.unblock')}>
        <Button
          type="text"
          danger={contact.active}
          icon={contact.active ? <LockOutlined /> : <UnlockOutlined />}
          aria-label={t(contact.active ? 'contacts.actions.block' : 'contacts.actions.unblock')}
          onClick={() => void toggleBlock(contact)}
        />
      </Tooltip>
      {canDelete ? (
        <Popconfirm
          title={t('contacts.confirmDelete.title', { name: contact.name })}
          description={t('contacts.confirmDelete.description')}
          okText={t('contacts.confirmDelete.ok')}
          cancelText={t('contacts.confirmDelete.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(contact)}
        >
          <Tooltip title={t('contacts.actions.delete')}>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('contacts.actions.delete')} />
          </Tooltip>
        </Popconfirm>
      ) : null}
    </Space>
  );

  const nameCell = (contact: Contact) => (
    <Space size={6} wrap>
      <span>{contact.name}</span>
      {contact.active ? null : <Tag color="red">{t('contacts.blocked')}</Tag>}
      {contact.isGroup ? <Tag>{t('contacts.group')}</Tag> : null}
    </Space>
  );

  const columns: ColumnsType<Contact> = [
    { key: 'avatar', width: 56, render: (_value, contact) => <ContactAvatar contact={contact} /> },
    { key: 'name', title: t('contacts.fields.name'), render: (_value, contact) => nameCell(contact) },
    { key: 'number', title: t('contacts.fields.number'), dataIndex: 'number', render: (number: string | null) => number ?? '—' },
    { key: 'email', title: t('contacts.fields.email'), dataIndex: 'email', render: (email: string | null) => email || '—' },
    {
      key: 'channel',
      title: t('contacts.fields.channel'),
      render: (_value, contact) => <ChannelLabel channel={contact.channel} connection={contact.whatsapp?.name} />,
    },
    {
      key: 'actions',
      title: t('contacts.fields.actions'),
      align: 'center',
      width: 150,
      render: (_value, contact) => actions(contact),
    },
  ];

  const contacts = data?.contacts ?? [];
  const empty = <Empty description={t(searchParam ? 'contacts.emptySearch' : 'contacts.empty')} />;

  return (
    <Card>
      <PageHeader
        title={
          <>
            {t('contacts.title')}
            {data ? (
              <Typography.Text type="secondary" style={{ fontSize: 14, marginLeft: 8 }}>
                ({data.count})
              </Typography.Text>
            ) : null}
          </>
        }
        search={typed}
        onSearch={setTyped}
        searchPlaceholder={t('contacts.searchPlaceholder')}
        actions={
          <>
            <Button icon={<ImportOutlined />} onClick={() => navigate('/contacts/import')}>
              {t('contacts.import')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, contactId: null })}>
              {t('contacts.add')}
            </Button>
          </>
        }
      />
      {isLoading ? (
        <Skeleton active avatar paragraph={{ rows: 8 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<Contact>
              dataSource={contacts}
              locale={{ emptyText: empty }}
              renderItem={(contact) => (
                <List.Item actions={[actions(contact)]}>
                  <List.Item.Meta
                    avatar={<ContactAvatar contact={contact} />}
                    title={nameCell(contact)}
                    description={[contact.number, contact.email].filter(Boolean).join(' · ')}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<Contact>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={contacts}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      <ContactDialog
        open={dialog.open}
        contactId={dialog.contactId}
        onClose={() => setDialog({ open: false, contactId: null })}
      />
    </Card>
  );
}
