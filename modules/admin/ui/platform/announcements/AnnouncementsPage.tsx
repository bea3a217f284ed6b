import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Flex, Input, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { type Announcement, useDeleteAnnouncementMutation, usePageAnnouncementsQuery } from '../api';
import { EditDeleteActions } from '../shared/EditDeleteActions';
import { useLoadErrorToast } from '../shared/useLoadErrorToast';
import { useSuperOnly } from '../shared/useSuperOnly';
import { AnnouncementDialog } from './AnnouncementDialog';
import { PRIORITY_COLORS } from './priority';

/** docs/product/tickets-and-inbox.md#constants-and-limits: searches wait 500 ms after the last keystroke. */
const SEARCH_DELAY_MS = 500;

/** Announcements (/announcements, super user only): title, priority, media name, status, actions. */
export function AnnouncementsPage() {
  const allowed = useSuperOnly();
  return allowed ? <AnnouncementsTable /> : null;
}

function AnnouncementsTable() {
  const { t } = useTranslation('admin');
  const [typed, setTyped] = useState('');
  const [searchParam, setSearchParam] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearchParam(typed.trim());
      setPageNumber(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const { data, isLoading, isFetching, isError } = usePageAnnouncementsQuery({ searchParam, pageNumber });
  useLoadErrorToast(isError);
  const [remove] = useDeleteAnnouncementMutation();
  const [dialog, setDialog] = useState<{ open: boolean; announcement: Announcement | null }>({ open: false, announcement: null });

  const onDelete = async (announcement: Announcement) => {
    try {
      await remove(announcement.id).unwrap();
      toast.success(t('platform.common.success'));
    } catch {
      toast.error(t('platform.common.deleteError'));
    }
  };

  const columns: ColumnsType<Announcement> = [
    { key: 'title', title: t('platform.announcements.fields.title'), dataIndex: 'title' },
    {
      key: 'priority',
      title: t('platform.announcements.fields.priority'),
      render: (_value, row) => (
        <Tag color={PRIORITY_COLORS[row.priority]}>{t(`platform.announcements.priorities.${row.priority}`)}</Tag>
      ),
    },
    {
      key: 'mediaName',
      title: t('platform.announcements.fields.mediaName'),
      render: (_value, row) =>
        row.mediaUrl ? (
          <a href={row.mediaUrl} target="_blank" rel="noreferrer">
            {row.mediaName}
          </a>
        ) : (
          '—'
        ),
    },
    {
      key: 'status',
      title: t('platform.announcements.fields.status'),
      render: (_value, row) => t(row.status ? 'platform.announcements.active' : 'platform.announcements.inactive'),
    },
    {
      key: 'actions',
      title: t('platform.common.actions'),
      width: 110,
      render: (_value, row) => (
        <Space size={2}>
          <EditDeleteActions onEdit={() => setDialog({ open: true, announcement: row })} onDelete={() => onDelete(row)} />
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('platform.announcements.title')}
        </Typography.Title>
        <Flex wrap gap={8} style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
          <Input
            allowClear
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={t('platform.announcements.searchPlaceholder')}
            aria-label={t('platform.announcements.searchPlaceholder')}
            prefix={<SearchOutlined />}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
          />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, announcement: null })}>
            {t('platform.announcements.add')}
          </Button>
        </Flex>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : isError ? (
        <Empty description={t('platform.common.loadError')} />
      ) : (
        <>
          <Table<Announcement>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={data?.records ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('platform.announcements.none')} /> }}
          />
          {data?.hasMore ? (
            <Flex justify="center" style={{ marginTop: 12 }}>
              <Button loading={isFetching} onClick={() => setPageNumber((page) => page + 1)}>
                +
              </Button>
            </Flex>
          ) : null}
        </>
      )}
      <AnnouncementDialog
        open={dialog.open}
        announcement={dialog.announcement}
        onClose={() => setDialog({ open: false, announcement: null })}
      />
    </Card>
  );
}
