import {
  BarChartOutlined,
  DeleteOutlined,
  EditOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  errorMessage,
  InfiniteScroll,
  showError,
  toast,
  useNarrowScreen,
  usePagedSearch,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, List, Popconfirm, Skeleton, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCampaignsQuery, useCancelCampaignMutation, useDeleteCampaignMutation, useRestartCampaignMutation } from '../api';
import { CampaignDialog } from '../components/CampaignDialog';
import { CampaignsGuard, dateTime, PageHeader, StatusTag } from '../components/common';
import type { Campaign } from '../types';

/** Campaigns (/campaigns, docs/product/automation.md#screens-and-routes): searchable table with infinite scroll and the actions. */
export function CampaignsPage() {
  return (
    <CampaignsGuard>
      <Campaigns />
    </CampaignsGuard>
  );
}

function Campaigns() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const narrow = useNarrowScreen();
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = useCampaignsQuery({ searchParam, pageNumber });
  const [cancel] = useCancelCampaignMutation();
  const [restart] = useRestartCampaignMutation();
  const [remove] = useDeleteCampaignMutation();
  const [dialog, setDialog] = useState<{ open: boolean; campaign: Campaign | null }>({ open: false, campaign: null });

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const act = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      toast.success(success);
    } catch (failure) {
      // docs/product/automation.md#errors: cancel and restart failures show the error's message
      toast.error(errorMessage(failure));
    }
  };

  const actions = (campaign: Campaign) => (
    <Space size={2} wrap>
      {campaign.status === 'EM_ANDAMENTO' ? (
        <Tooltip title={t('actions.stop')}>
          <Button
            type="text"
            icon={<PauseCircleOutlined />}
            aria-label={t('actions.stop')}
            onClick={() => act(() => cancel(campaign.id).unwrap(), t('toasts.cancelled'))}
          />
        </Tooltip>
      ) : null}
      {campaign.status === 'CANCELADA' ? (
        <Tooltip title={t('actions.restart')}>
          <Button
            type="text"
            icon={<PlayCircleOutlined />}
            aria-label={t('actions.restart')}
            onClick={() => act(() => restart(campaign.id).unwrap(), t('toasts.restarted'))}
          />
        </Tooltip>
      ) : null}
      <Tooltip title={t('actions.report')}>
        <Button
          type="text"
          icon={<BarChartOutlined />}
          aria-label={t('actions.report')}
          onClick={() => navigate(`/campaign/${campaign.id}/report`)}
        />
      </Tooltip>
      <Tooltip title={t('actions.edit')}>
        <Button
          type="text"
          icon={<EditOutlined />}
          aria-label={t('actions.edit')}
          onClick={() => setDialog({ open: true, campaign })}
        />
      </Tooltip>
      <Popconfirm
        title={t('confirmDelete.title', { name: campaign.name })}
        description={t('confirmDelete.description')}
        okText={t('confirmDelete.ok')}
        cancelText={t('confirmDelete.cancel')}
        okButtonProps={{ danger: true }}
        onConfirm={() => act(() => remove(campaign.id).unwrap(), t('toasts.deleted'))}
      >
        <Tooltip title={t('actions.delete')}>
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('actions.delete')} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );

  const confirmationText = (campaign: Campaign) => t(campaign.confirmation ? 'common.enabled' : 'common.disabled');
  const columns: ColumnsType<Campaign> = [
    { key: 'name', title: t('fields.name'), dataIndex: 'name' },
    { key: 'status', title: t('fields.status'), render: (_v, c) => <StatusTag status={c.status} /> },
    { key: 'contactList', title: t('fields.contactList'), render: (_v, c) => c.contactList?.name ?? c.tagList?.name ?? '—' },
    { key: 'whatsapp', title: t('fields.whatsapp'), render: (_v, c) => c.whatsapp?.name ?? '—' },
    { key: 'scheduledAt', title: t('fields.scheduledAt'), render: (_v, c) => dateTime(c.scheduledAt) },
    { key: 'completedAt', title: t('fields.completedAt'), render: (_v, c) => dateTime(c.completedAt) },
    { key: 'confirmation', title: t('fields.confirmation'), render: (_v, c) => confirmationText(c) },
    { key: 'actions', title: t('fields.actions'), align: 'center', render: (_v, c) => actions(c) },
  ];
  const records = data?.records ?? [];
  const empty = <Empty description={t(searchParam ? 'campaigns.emptySearch' : 'campaigns.empty')} />;

  return (
    <Card>
      <PageHeader
        title={t('campaigns.title')}
        search={typed}
        onSearch={setTyped}
        searchPlaceholder={t('common.search')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, campaign: null })}>
            {t('campaigns.add')}
          </Button>
        }
      />
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<Campaign>
              dataSource={records}
              locale={{ emptyText: empty }}
              renderItem={(campaign) => (
                <List.Item actions={[actions(campaign)]}>
                  <List.Item.Meta
                    title={
                      <Space wrap>
                        <Typography.Text strong>{campaign.name}</Typography.Text>
                        <StatusTag status={campaign.status} />
                      </Space>
                    }
                    description={`${campaign.whatsapp?.name ?? '—'} · ${dateTime(campaign.scheduledAt)}`}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<Campaign>
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
      <CampaignDialog
        open={dialog.open}
        campaign={dialog.campaign ? (records.find((c) => c.id === dialog.campaign?.id) ?? dialog.campaign) : null}
        onClose={() => setDialog({ open: false, campaign: null })}
      />
    </Card>
  );
}
