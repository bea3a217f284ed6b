import { CheckCircleFilled, DeleteOutlined, EditOutlined, PaperClipOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, List, Popconfirm, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import type { QuickMessage } from '../../../shared/types';
import { useDeleteQuickMessageMutation, usePageQuickMessagesQuery } from '../api/quick-messages';
import { useNarrowScreen, usePagedSearch } from '../shared/hooks';
import { InfiniteScroll } from '../shared/InfiniteScroll';
import { PageHeader } from '../shared/PageHeader';
import { canDeleteQuickMessage, canEditQuickMessage, type QuickMessageViewer } from './permissions';
import { QuickMessageDialog } from './QuickMessageDialog';

const GENERAL_TICK = <CheckCircleFilled style={{ color: '#52c41a', fontSize: 18 }} />;

/** Quick replies (/quick-messages, docs/product/automation.md#screens-and-routes): shortcode, attachment, general tick, actions. */
export function QuickMessagesPage() {
  const { t } = useTranslation('inbox');
  const narrow = useNarrowScreen();
  const user = useSession();
  const viewer: QuickMessageViewer | null = user ? { id: user.id, profile: user.profile } : null;
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = usePageQuickMessagesQuery({ searchParam, pageNumber });
  const [deleteQuickMessage] = useDeleteQuickMessageMutation();
  const [dialog, setDialog] = useState<{ open: boolean; record: QuickMessage | null }>({ open: false, record: null });

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const remove = async (record: QuickMessage) => {
    try {
      await deleteQuickMessage(record.id).unwrap();
      toast.success(t('quickMessages.toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const actions = (record: QuickMessage) => {
    const editable = viewer !== null && canEditQuickMessage(record, viewer);
    const deletable = viewer !== null && canDeleteQuickMessage(record, viewer);
    return (
      <Space size={4}>
        <Tooltip title={t(editable ? 'quickMessages.actions.edit' : 'quickMessages.actions.editOwnerOnly')}>
          <Button
            type="text"
            icon={<EditOutlined />}
            disabled={!editable}
            aria-label={t('quickMessages.actions.edit')}
            onClick={() => setDialog({ open: true, record })}
          />
        </Tooltip>
        <Popconfirm
          title={t('quickMessages.confirmDelete.title', { shortcode: record.shortcode })}
          description={t('quickMessages.confirmDelete.description')}
          okText={t('quickMessages.confirmDelete.ok')}
          cancelText={t('quickMessages.confirmDelete.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(record)}
          disabled={!deletable}
        >
          <Tooltip title={t(deletable ? 'quickMessages.actions.delete' : 'quickMessages.actions.deleteOwnerOnly')}>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              disabled={!deletable}
              aria-label={t('quickMessages.actions.delete')}
            />
          </Tooltip>
        </Popconfirm>
      </Space>
    );
  };

  const shortcodeCell = (record: QuickMessage) => (
    <Space size={6} wrap>
      <Typography.Text strong>/{record.shortcode}</Typography.Text>
      {record.status ? null : <Tag>{t('quickMessages.inactive')}</Tag>}
    </Space>
  );

  const mediaCell = (record: QuickMessage) =>
    record.mediaName ? (
      <Space size={4}>
        <PaperClipOutlined />
        {record.mediaName}
      </Space>
    ) : (
      <Typography.Text type="secondary">{t('quickMessages.noAttachment')}</Typography.Text>
    );

  const columns: ColumnsType<QuickMessage> = [
    { key: 'shortcode', title: t('quickMessages.fields.shortcode'), render: (_value, record) => shortcodeCell(record) },
    { key: 'media', title: t('quickMessages.fields.mediaName'), render: (_value, record) => mediaCell(record) },
    {
      key: 'geral',
      title: t('quickMessages.fields.geral'),
      align: 'center',
      width: 100,
      render: (_value, record) => (record.geral ? <span title={t('quickMessages.general')}>{GENERAL_TICK}</span> : null),
    },
    {
      key: 'actions',
      title: t('quickMessages.fields.actions'),
      align: 'center',
      width: 120,
      render: (_value, record) => actions(record),
    },
  ];

  const records = data?.records ?? [];
  const empty = <Empty description={t(searchParam ? 'quickMessages.emptySearch' : 'quickMessages.empty')} />;

  return (
    <Card>
      <PageHeader
        title={t('quickMessages.title')}
        search={typed}
        onSearch={setTyped}
        searchPlaceholder={t('quickMessages.searchPlaceholder')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, record: null })}>
            {t('quickMessages.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<QuickMessage>
              dataSource={records}
              locale={{ emptyText: empty }}
              renderItem={(record) => (
                <List.Item actions={[actions(record)]}>
                  <List.Item.Meta
                    title={
                      <Space size={6}>
                        {shortcodeCell(record)}
                        {record.geral ? GENERAL_TICK : null}
                      </Space>
                    }
                    description={mediaCell(record)}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<QuickMessage>
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
      <QuickMessageDialog open={dialog.open} record={dialog.record} onClose={() => setDialog({ open: false, record: null })} />
    </Card>
  );
}
