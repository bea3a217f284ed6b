import {
  ArrowLeftOutlined,
  CheckCircleFilled,
  CloseCircleFilled,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  QuestionCircleOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  InfiniteScroll,
  showError,
  toast,
  useNarrowScreen,
  usePagedSearch,
  usePermission,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Form, Input, List, Modal, Popconfirm, Skeleton, Space, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  useContactListItemsQuery,
  useContactListQuery,
  useDeleteContactListItemMutation,
  useSaveContactListItemMutation,
} from '../api';
import { CampaignsGuard, PageHeader } from '../components/common';
import { ImportDialog } from '../components/ImportDialog';
import type { ContactListItem } from '../types';

/** The items of a list (/contact-lists/:contactListId/contacts, docs/product/automation.md#screens-and-routes). */
export function ContactListItemsPage() {
  return (
    <CampaignsGuard>
      <Items />
    </CampaignsGuard>
  );
}

/** The WhatsApp-valid icon: valid, not on the channel, or not known (the channel can't tell). */
function Validity({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation('campaigns');
  if (valid === true)
    return (
      <Tooltip title={t('items.valid')}>
        <CheckCircleFilled style={{ color: '#52c41a' }} aria-label={t('items.valid')} />
      </Tooltip>
    );
  if (valid === false)
    return (
      <Tooltip title={t('items.invalid')}>
        <CloseCircleFilled style={{ color: '#ff4d4f' }} aria-label={t('items.invalid')} />
      </Tooltip>
    );
  return (
    <Tooltip title={t('items.unknown')}>
      <QuestionCircleOutlined style={{ color: '#8c8c8c' }} aria-label={t('items.unknown')} />
    </Tooltip>
  );
}

function Items() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const narrow = useNarrowScreen();
  const contactListId = Number(useParams().contactListId);
  const valid = Number.isInteger(contactListId) && contactListId > 0;
  const list = useContactListQuery(contactListId, { skip: !valid });
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error, refetch } = useContactListItemsQuery(
    { contactListId, searchParam, pageNumber },
    { skip: !valid },
  );
  const canDelete = usePermission('contacts-page:deleteContact');
  const [remove] = useDeleteContactListItemMutation();
  const [editing, setEditing] = useState<{ open: boolean; item: ContactListItem | null }>({ open: false, item: null });
  const [importing, setImporting] = useState(false);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const actions = (item: ContactListItem) => (
    <Space size={2}>
      <Tooltip title={t('actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => setEditing({ open: true, item })}
        />
      </Tooltip>
      {canDelete ? (
        <Popconfirm
          title={t('items.confirmDelete', { name: item.name })}
          okText={t('confirmDelete.ok')}
          cancelText={t('confirmDelete.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={async () => {
            try {
              await remove(item.id).unwrap();
              toast.success(t('toasts.itemDeleted'));
            } catch (failure) {
              showError(failure);
            }
          }}
        >
          <Tooltip title={t('actions.delete')}>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
          </Tooltip>
        </Popconfirm>
      ) : null}
    </Space>
  );

  const columns: ColumnsType<ContactListItem> = [
    { key: 'valid', title: '', width: 48, align: 'center', render: (_v, item) => <Validity valid={item.isWhatsappValid} /> },
    { key: 'name', title: t('fields.name'), dataIndex: 'name' },
    { key: 'number', title: t('items.number'), dataIndex: 'number' },
    { key: 'email', title: t('items.email'), render: (_v, item) => item.email ?? '—' },
    { key: 'actions', title: t('fields.actions'), align: 'center', width: 120, render: (_v, item) => actions(item) },
  ];
  const contacts = data?.contacts ?? [];
  const empty = <Empty description={t(searchParam ? 'items.emptySearch' : 'items.empty')} />;

  return (
    <Card>
      <PageHeader
        title={list.data ? t('items.title', { name: list.data.name }) : t('items.titleLoading')}
        search={typed}
        onSearch={setTyped}
        searchPlaceholder={t('common.search')}
        actions={
          <Space wrap>
            <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/contact-lists')}>
              {t('items.back')}
            </Button>
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              {t('lists.import')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, item: null })}>
              {t('items.add')}
            </Button>
          </Space>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<ContactListItem>
              dataSource={contacts}
              locale={{ emptyText: empty }}
              renderItem={(item) => (
                <List.Item actions={[actions(item)]}>
                  <List.Item.Meta
                    avatar={<Validity valid={item.isWhatsappValid} />}
                    title={item.name}
                    description={item.number}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<ContactListItem>
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
      <ItemDialog
        open={editing.open}
        item={editing.item}
        contactListId={contactListId}
        onClose={() => setEditing({ open: false, item: null })}
      />
      <ImportDialog
        list={importing ? (list.data ?? null) : null}
        onClose={() => {
          setImporting(false);
          void refetch();
        }}
      />
    </Card>
  );
}

interface ItemValues {
  name: string;
  number: string;
  email: string;
}

/** New or edit contact of a list (docs/product/automation.md#validation: name 2–50, number 8–50, a valid e-mail). */
function ItemDialog({
  open,
  item,
  contactListId,
  onClose,
}: {
  open: boolean;
  item: ContactListItem | null;
  contactListId: number;
  onClose(): void;
}) {
  const { t } = useTranslation('campaigns');
  const [form] = Form.useForm<ItemValues>();
  const [save, saving] = useSaveContactListItemMutation();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' });
  }, [open, item, form]);
  const submit = async (values: ItemValues) => {
    try {
      await save({ id: item?.id, body: { ...values, email: values.email ?? '', contactListId } }).unwrap();
      toast.success(t(item ? 'toasts.itemUpdated' : 'toasts.itemCreated'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  return (
    <Modal
      open={open}
      title={t(item ? 'items.editTitle' : 'items.newTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      confirmLoading={saving.isLoading}
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
        <Form.Item
          name="number"
          label={t('items.number')}
          extra={t('items.numberHint')}
          rules={[
            { required: true, message: t('validation.required') },
            { min: 8, message: t('validation.tooShort') },
            { max: 50, message: t('validation.tooLong') },
          ]}
        >
          <Input inputMode="tel" />
        </Form.Item>
        <Form.Item name="email" label={t('items.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
          <Input type="email" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
