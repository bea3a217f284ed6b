import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined, TeamOutlined, UploadOutlined } from '@ant-design/icons';
import { InfiniteScroll, showError, toast, useNarrowScreen, usePagedSearch, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Skeleton, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  useContactListsQuery,
  useCreateContactListMutation,
  useDeleteContactListMutation,
  useUpdateContactListMutation,
} from '../api';
import { CampaignsGuard, PageHeader } from '../components/common';
import { ImportDialog } from '../components/ImportDialog';
import { downloadExampleSheet } from '../download';
import type { ContactList } from '../types';

/** Contact lists (/contact-lists, docs/product/automation.md#screens-and-routes). */
export function ContactListsPage() {
  return (
    <CampaignsGuard>
      <ContactLists />
    </CampaignsGuard>
  );
}

function ContactLists() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const narrow = useNarrowScreen();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = useContactListsQuery({ searchParam, pageNumber });
  const [remove] = useDeleteContactListMutation();
  const [editing, setEditing] = useState<{ open: boolean; list: ContactList | null }>({ open: false, list: null });
  const [importing, setImporting] = useState<ContactList | null>(null);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const download = async () => {
    try {
      await downloadExampleSheet();
    } catch (failure) {
      showError(failure);
    }
  };

  const actions = (list: ContactList) => (
    <Space size={2} wrap>
      <Tooltip title={t('lists.example')}>
        <Button type="text" icon={<DownloadOutlined />} aria-label={t('lists.example')} onClick={download} />
      </Tooltip>
      <Tooltip title={t('lists.import')}>
        <Button type="text" icon={<UploadOutlined />} aria-label={t('lists.import')} onClick={() => setImporting(list)} />
      </Tooltip>
      <Tooltip title={t('lists.contacts')}>
        <Button
          type="text"
          icon={<TeamOutlined />}
          aria-label={t('lists.contacts')}
          onClick={() => navigate(`/contact-lists/${list.id}/contacts`)}
        />
      </Tooltip>
      <Tooltip title={t('actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => setEditing({ open: true, list })}
        />
      </Tooltip>
      <Popconfirm
        title={t('lists.confirmDelete', { name: list.name })}
        okText={t('confirmDelete.ok')}
        cancelText={t('confirmDelete.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={async () => {
          try {
            await remove(list.id).unwrap();
            toast.success(t('toasts.listDeleted'));
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

  const columns: ColumnsType<ContactList> = [
    { key: 'name', title: t('fields.name'), dataIndex: 'name' },
    { key: 'count', title: t('lists.count'), dataIndex: 'contactsCount', align: 'center', width: 140 },
    { key: 'actions', title: t('fields.actions'), align: 'center', width: 240, render: (_v, list) => actions(list) },
  ];
  const records = data?.records ?? [];
  const empty = <Empty description={t(searchParam ? 'lists.emptySearch' : 'lists.empty')} />;

  return (
    <Card>
      <PageHeader
        title={t('lists.title')}
        search={typed}
        onSearch={setTyped}
        searchPlaceholder={t('common.search')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, list: null })}>
            {t('lists.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<ContactList>
              dataSource={records}
              locale={{ emptyText: empty }}
              renderItem={(list) => (
                <List.Item actions={[actions(list)]}>
                  <List.Item.Meta title={list.name} description={t('lists.countText', { count: list.contactsCount })} />
                </List.Item>
              )}
            />
          ) : (
            <Table<ContactList>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={records}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      <ListDialog open={editing.open} list={editing.list} onClose={() => setEditing({ open: false, list: null })} />
      <ImportDialog list={importing} onClose={() => setImporting(null)} />
    </Card>
  );
}

/** New or edit list: its name, 2 to 50 characters (docs/product/automation.md#validation). */
function ListDialog({ open, list, onClose }: { open: boolean; list: ContactList | null; onClose(): void }) {
  const { t } = useTranslation('campaigns');
  const [form] = Form.useForm<{ name: string }>();
  const [create, creating] = useCreateContactListMutation();
  const [update, updating] = useUpdateContactListMutation();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: list?.name ?? '' });
  }, [open, list, form]);
  const submit = async ({ name }: { name: string }) => {
    try {
      if (list) await update({ id: list.id, name }).unwrap();
      else await create({ name }).unwrap();
      toast.success(t(list ? 'toasts.listUpdated' : 'toasts.listCreated'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  return (
    <Modal
      open={open}
      title={t(list ? 'lists.editTitle' : 'lists.newTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      confirmLoading={creating.isLoading || updating.isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[
            { required: true, message: t('validation.required') },
            { min: 2, message: t('validation.tooShort') },
            { max: 50, message: t('validation.tooLong') },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
