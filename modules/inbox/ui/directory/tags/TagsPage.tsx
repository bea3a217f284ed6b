import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Tag as Chip, Empty, List, Popconfirm, Skeleton, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import type { Tag } from '../../../shared/types';
import { useDeleteTagMutation, usePageTagsQuery } from '../api/tags';
import { useNarrowScreen, usePagedSearch } from '../shared/hooks';
import { InfiniteScroll } from '../shared/InfiniteScroll';
import { PageHeader } from '../shared/PageHeader';
import { TagDialog } from './TagDialog';

/** Tags (/tags, docs/product/administration.md#screens-and-routes): searchable table with infinite scroll, add, edit, delete. */
export function TagsPage() {
  const { t } = useTranslation('inbox');
  const narrow = useNarrowScreen();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = usePageTagsQuery({ searchParam, pageNumber });
  const [deleteTag] = useDeleteTagMutation();
  const [dialog, setDialog] = useState<{ open: boolean; tag: Tag | null }>({ open: false, tag: null });

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const remove = async (tag: Tag) => {
    try {
      await deleteTag(tag.id).unwrap();
      toast.success(t('tags.toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const chip = (tag: Tag) => (
    <Space size={6} wrap>
      <Chip color={tag.color} style={{ marginInlineEnd: 0 }}>
        {tag.name}
      </Chip>
      {tag.kanban === 1 ? <Typography.Text type="secondary">{t('tags.kanbanLane')}</Typography.Text> : null}
    </Space>
  );

  const actions = (tag: Tag) => (
    <Space size={4}>
      <Tooltip title={t('tags.actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('tags.actions.edit')}
          onClick={() => setDialog({ open: true, tag })}
        />
      </Tooltip>
      <Popconfirm
        title={t('tags.confirmDelete.title', { name: tag.name })}
        description={t('tags.confirmDelete.description')}
        okText={t('tags.confirmDelete.ok')}
        cancelText={t('tags.confirmDelete.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => remove(tag)}
      >
        <Tooltip title={t('tags.actions.delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('tags.actions.delete')} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );

  const columns: ColumnsType<Tag> = [
    { key: 'name', title: t('tags.fields.name'), render: (_value, tag) => chip(tag) },
    { key: 'tickets', title: t('tags.fields.tickets'), dataIndex: 'ticketTags', align: 'center', width: 120 },
    { key: 'contacts', title: t('tags.fields.contacts'), dataIndex: 'contacts', align: 'center', width: 120 },
    { key: 'actions', title: t('tags.fields.actions'), align: 'center', width: 120, render: (_value, tag) => actions(tag) },
  ];

  const tags = data?.tags ?? [];
  const empty = <Empty description={t(searchParam ? 'tags.emptySearch' : 'tags.empty')} />;

  return (
    <Card>
      <PageHeader
        title={t('tags.title')}
        search={typed}
        onSearch={setTyped}
        searchPlaceholder={t('tags.searchPlaceholder')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, tag: null })}>
            {t('tags.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<Tag>
              dataSource={tags}
              locale={{ emptyText: empty }}
              renderItem={(tag) => (
                <List.Item actions={[actions(tag)]}>
                  <List.Item.Meta
                    title={chip(tag)}
                    description={t('tags.counts', { tickets: tag.ticketTags, contacts: tag.contacts })}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<Tag>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={tags}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      <TagDialog open={dialog.open} tag={dialog.tag} onClose={() => setDialog({ open: false, tag: null })} />
    </Card>
  );
}
