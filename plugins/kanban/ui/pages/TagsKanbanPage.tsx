import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { showError, toast, usePermission, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Tag as Chip, Empty, Flex, Input, Popconfirm, Skeleton, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useKanbanDeleteLaneMutation, useKanbanLanePageQuery, useKanbanLanesQuery } from '../api';
import { LaneDialog } from '../components/LaneDialog';
import type { Lane } from '../types';

/** Search requests wait this long after typing (docs/product/administration.md#constants-and-limits). */
const SEARCH_DELAY_MS = 500;
/** Infinite scroll loads the next page within this distance of the bottom (docs/product/administration.md#constants-and-limits). */
const LOAD_MORE_PX = 100;

/**
 * TagsKanban (/TagsKanban, docs/product/administration.md#screens-and-routes): the kanban tags, searchable, with their colour chip and
 * ticket count, edit, delete, add, and 'Voltar para o Kanban'. Edit, delete and add are offered only to
 * those who may manage lanes (dashboard:view, the permission of the board's '+ Adicionar colunas'); the
 * server refuses everyone else as well.
 */
export function TagsKanbanPage() {
  const { t } = useTranslation('kanban');
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [searchParam, setSearchParam] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [dialog, setDialog] = useState<{ open: boolean; lane: Lane | null }>({ open: false, lane: null });
  const page = useKanbanLanePageQuery({ searchParam, pageNumber });
  const allLanes = useKanbanLanesQuery();
  const [deleteLane] = useKanbanDeleteLaneMutation();
  const managesLanes = usePermission('dashboard:view');

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearchParam(typed.trim());
      setPageNumber(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => {
    if (page.error) showError(page.error);
  }, [page.error]);

  const names = useMemo(() => new Map((allLanes.data ?? []).map((lane) => [lane.id, lane.name])), [allLanes.data]);

  const remove = async (lane: Lane) => {
    try {
      await deleteLane(lane.id).unwrap();
      toast.success(t('toasts.laneDeleted'));
      setPageNumber(1);
      page.refetch();
    } catch (error) {
      showError(error);
    }
  };

  const automation = (lane: Lane) => {
    const parts: string[] = [];
    if (lane.timeLane && lane.nextLaneId)
      parts.push(t('lanes.automation.timer', { minutes: lane.timeLane, lane: names.get(lane.nextLaneId) ?? '?' }));
    if (lane.greetingMessageLane) parts.push(t('lanes.automation.greeting'));
    if (lane.rollbackLaneId) parts.push(t('lanes.automation.rollback', { lane: names.get(lane.rollbackLaneId) ?? '?' }));
    return parts.length ? parts.join(' · ') : t('lanes.automation.none');
  };

  const columns: ColumnsType<Lane> = [
    {
      key: 'name',
      title: t('lanes.fields.name'),
      render: (_value, lane) => (
        <Chip color={lane.color} style={{ marginInlineEnd: 0 }}>
          {lane.name}
        </Chip>
      ),
    },
    { key: 'tickets', title: t('lanes.fields.tickets'), dataIndex: 'ticketTags', align: 'center', width: 110 },
    { key: 'automation', title: t('lanes.fields.automation'), render: (_value, lane) => automation(lane) },
  ];
  if (managesLanes) {
    columns.push({
      key: 'actions',
      title: t('lanes.fields.actions'),
      align: 'center',
      width: 120,
      render: (_value, lane) => (
        <Space size={4}>
          <Tooltip title={t('lanes.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('lanes.edit')}
              onClick={() => setDialog({ open: true, lane })}
            />
          </Tooltip>
          <Popconfirm
            title={t('lanes.confirmDelete.title', { name: lane.name })}
            description={t('lanes.confirmDelete.description')}
            okText={t('lanes.confirmDelete.ok')}
            cancelText={t('lanes.confirmDelete.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(lane)}
          >
            <Tooltip title={t('lanes.delete')}>
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('lanes.delete')} />
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    });
  }

  const hasMore = page.data?.hasMore ?? false;
  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('lanes.title')}
        </Typography.Title>
        <Flex wrap gap={8} align="center" style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
          <Input
            allowClear
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={t('lanes.searchPlaceholder')}
            aria-label={t('lanes.searchPlaceholder')}
            prefix={<SearchOutlined />}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
          />
          {managesLanes && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, lane: null })}>
              {t('lanes.add')}
            </Button>
          )}
          <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/Kanban')}>
            {t('lanes.back')}
          </Button>
        </Flex>
      </Flex>
      {page.isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <div
          style={{ maxHeight: 'calc(100vh - 220px)', overflowY: 'auto' }}
          onScroll={(event) => {
            const element = event.currentTarget;
            if (hasMore && !page.isFetching && element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_MORE_PX) {
              setPageNumber((current) => current + 1);
            }
          }}
        >
          <Table<Lane>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={page.data?.tags ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            loading={page.isFetching && pageNumber > 1}
            locale={{ emptyText: <Empty description={t('lanes.empty')} /> }}
          />
        </div>
      )}
      <LaneDialog
        open={dialog.open}
        lane={dialog.lane}
        onClose={() => {
          setDialog({ open: false, lane: null });
          setPageNumber(1);
          page.refetch();
        }}
      />
    </Card>
  );
}
