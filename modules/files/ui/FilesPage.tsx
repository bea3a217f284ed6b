import {
  DeleteOutlined,
  EditOutlined,
  PaperClipOutlined,
  PlusOutlined,
  SearchOutlined,
  StopOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  InfiniteScroll,
  showError,
  toast,
  useNarrowScreen,
  usePagedSearch,
  usePermission,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import {
  Button,
  Card,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Table,
  Tooltip,
  Typography,
  Upload,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import {
  useCreateFileListMutation,
  useDeleteFileListMutation,
  useFileListsQuery,
  useUpdateFileListMutation,
  useUploadFileOptionMutation,
} from './api';
import type { FileList } from './types';

/** File lists (/files, docs/product/automation.md "File lists"): admins only; a profile user sees the no-access view. */
export function FilesPage() {
  const { t } = useTranslation('files');
  const allowed = usePermission('files:manage');
  if (!allowed) return <Result status="403" icon={<StopOutlined />} title={t('noAccess')} />;
  return <FileLists />;
}

function FileLists() {
  const { t } = useTranslation('files');
  const narrow = useNarrowScreen();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = useFileListsQuery({ searchParam, pageNumber });
  const [remove] = useDeleteFileListMutation();
  const [editing, setEditing] = useState<{ open: boolean; list: FileList | null }>({ open: false, list: null });

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const actions = (list: FileList) => (
    <Space size={2}>
      <Tooltip title={t('edit')}>
        <Button type="text" icon={<EditOutlined />} aria-label={t('edit')} onClick={() => setEditing({ open: true, list })} />
      </Tooltip>
      <Popconfirm
        title={t('deleteTitle', { name: list.name })}
        description={t('deleteText')}
        okText={t('confirmOk')}
        cancelText={t('confirmCancel')}
        okButtonProps={{ danger: true }}
        onConfirm={async () => {
          try {
            await remove(list.id).unwrap();
            toast.success(t('deleted'));
          } catch (failure) {
            showError(failure);
          }
        }}
      >
        <Tooltip title={t('delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );

  const columns: ColumnsType<FileList> = [
    { key: 'name', title: t('name'), dataIndex: 'name' },
    { key: 'actions', title: t('actions'), align: 'center', width: 140, render: (_value, list) => actions(list) },
  ];
  const records = data?.files ?? [];
  const empty = <Empty description={t(searchParam ? 'emptySearch' : 'empty')} />;

  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <Flex wrap gap={8} align="center" style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
          <Input
            allowClear
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={t('search')}
            aria-label={t('search')}
            prefix={<SearchOutlined />}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, list: null })}>
            {t('add')}
          </Button>
        </Flex>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<FileList>
              dataSource={records}
              locale={{ emptyText: empty }}
              renderItem={(list) => (
                <List.Item actions={[actions(list)]}>
                  <List.Item.Meta title={list.name} />
                </List.Item>
              )}
            />
          ) : (
            <Table<FileList>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={records}
              pagination={false}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      <FileListDialog open={editing.open} list={editing.list} onClose={() => setEditing({ open: false, list: null })} />
    </Card>
  );
}

interface OptionValues {
  id?: number;
  name: string;
  fileName?: string | null;
  /** The file picked in the dialog, sent after the list is saved. */
  file?: File;
}

interface DialogValues {
  name: string;
  message: string;
  options: OptionValues[];
}

/**
 * New or edit list: name (3 characters at least), message, and options each with a name and a file. The list
 * is saved first (its answer gives each option its id, in the order sent); then each picked file is uploaded.
 */
function FileListDialog({ open, list, onClose }: { open: boolean; list: FileList | null; onClose(): void }) {
  const { t } = useTranslation('files');
  const session = useSession();
  const [form] = Form.useForm<DialogValues>();
  const [create] = useCreateFileListMutation();
  const [update] = useUpdateFileListMutation();
  const [upload] = useUploadFileOptionMutation();
  const [saving, setSaving] = useState(false);
  // the list as last saved here: after a failed upload, trying again changes it instead of creating another
  const [saved, setSaved] = useState<FileList | null>(null);

  useEffect(() => {
    if (!open) return;
    setSaved(null);
    form.setFieldsValue({
      name: list?.name ?? '',
      message: list?.message ?? '',
      options: (list?.options ?? []).map((option) => ({ id: option.id, name: option.name, fileName: option.fileName })),
    });
  }, [open, list, form]);

  const submit = async (values: DialogValues) => {
    // the store's options, not `values`: a submit only carries registered fields, and an option's id has none
    const options = (form.getFieldValue('options') as OptionValues[] | undefined) ?? [];
    const body = {
      name: values.name,
      message: values.message,
      options: options.map((option) => ({ id: option.id ?? null, name: option.name })),
      userId: session?.id ?? null,
    };
    setSaving(true);
    try {
      const current = saved ?? list;
      const answer = current ? await update({ id: current.id, body }).unwrap() : await create(body).unwrap();
      setSaved(answer);
      for (const [index, option] of answer.options.entries()) form.setFieldValue(['options', index, 'id'], option.id);
      for (const [index, option] of options.entries()) {
        const optionId = answer.options[index]?.id;
        if (!option.file || optionId === undefined) continue;
        const uploaded = await upload({ listId: answer.id, optionId, file: option.file }).unwrap();
        form.setFieldValue(['options', index, 'file'], undefined);
        form.setFieldValue(['options', index, 'fileName'], uploaded.options[index]?.fileName ?? option.file.name);
      }
      toast.success(t('saved'));
      onClose();
    } catch (failure) {
      showError(failure);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(list || saved ? 'dialog.edit' : 'dialog.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="name"
          label={t('dialog.name')}
          rules={[
            { required: true, message: t('dialog.required') },
            { min: 3, message: t('dialog.nameShort') },
          ]}
        >
          <Input autoFocus maxLength={100} />
        </Form.Item>
        <Form.Item
          name="message"
          label={t('dialog.message')}
          rules={[{ required: true, whitespace: true, message: t('dialog.required') }]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={4096} />
        </Form.Item>
        <Typography.Text strong>{t('dialog.options')}</Typography.Text>
        <Form.List name="options">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8} style={{ marginTop: 8 }}>
              {fields.map((field) => (
                <OptionRow key={field.key} index={field.name} onRemove={() => remove(field.name)} />
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '' })}>
                {t('dialog.addOption')}
              </Button>
            </Flex>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** One option: its name, its current file (if any) and the file picked to replace it. */
function OptionRow({ index, onRemove }: { index: number; onRemove(): void }) {
  const { t } = useTranslation('files');
  const form = Form.useFormInstance<DialogValues>();
  const fileName = Form.useWatch(['options', index, 'fileName'], { form, preserve: true }) as string | null | undefined;
  const picked = Form.useWatch(['options', index, 'file'], { form, preserve: true }) as File | undefined;
  return (
    <Card size="small">
      <Flex wrap gap={8} align="flex-start">
        <Form.Item
          name={[index, 'name']}
          rules={[{ required: true, whitespace: true, message: t('dialog.required') }]}
          style={{ flex: '1 1 180px', marginBottom: 0 }}
        >
          <Input placeholder={t('dialog.optionName')} aria-label={t('dialog.optionName')} maxLength={100} />
        </Form.Item>
        <Form.Item name={[index, 'file']} hidden>
          <Input type="hidden" />
        </Form.Item>
        <Upload
          maxCount={1}
          showUploadList={false}
          beforeUpload={(file) => {
            form.setFieldValue(['options', index, 'file'], file);
            // kept until the list is saved: the option needs its id first
            return false;
          }}
        >
          <Button icon={<UploadOutlined />}>{t('dialog.upload')}</Button>
        </Upload>
        <Tooltip title={t('dialog.remove')}>
          <Button danger type="text" icon={<DeleteOutlined />} aria-label={t('dialog.remove')} onClick={onRemove} />
        </Tooltip>
      </Flex>
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
        <PaperClipOutlined /> {picked ? t('chosenFile', { name: picked.name }) : (fileName ?? t('noFile'))}
      </Typography.Text>
    </Card>
  );
}
