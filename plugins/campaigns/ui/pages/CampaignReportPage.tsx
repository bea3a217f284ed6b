import { ArrowLeftOutlined } from '@ant-design/icons';
import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Col, Empty, Progress, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useCampaignQuery } from '../api';
import { CampaignsGuard, dateTime, StatusTag } from '../components/common';

/** The documented reload of the report after a finished update arrives (docs/product/automation.md#states-and-transitions, #constants-and-limits). */
export const FINISHED_RELOAD_MS = 5_000;

/** The report of a campaign (/campaign/:campaignId/report, docs/product/automation.md#screens-and-routes), live over the campaign channel. */
export function CampaignReportPage() {
  return (
    <CampaignsGuard>
      <Report />
    </CampaignsGuard>
  );
}

function Report() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const id = Number(useParams().campaignId);
  const { data: campaign, isLoading, error, refetch } = useCampaignQuery(id, { skip: !Number.isInteger(id) || id <= 0 });
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  // a finished update arriving live: read the report again 5 s later (the last counts settle)
  useEffect(() => {
    const status = campaign?.status ?? null;
    const was = previous.current;
    previous.current = status;
    if (status !== 'FINALIZADA' || was === null || was === 'FINALIZADA') return;
    const timer = setTimeout(() => void refetch(), FINISHED_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [campaign?.status, refetch]);

  if (isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (!campaign) return <Empty description={t('report.notFound')} />;
  const { report } = campaign;
  const percent = report.valid > 0 ? Math.round((report.delivered / report.valid) * 100) : 0;
  const card = (title: string, value: string | number, testId: string) => (
    <Col xs={12} md={6}>
      <Card size="small" data-testid={testId}>
        <Statistic title={title} value={value} />
      </Card>
    </Col>
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Space wrap align="center" style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap align="center">
            <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/campaigns')} aria-label={t('report.back')} />
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('report.title', { name: campaign.name })}
            </Typography.Title>
          </Space>
          <StatusTag status={campaign.status} />
        </Space>
        <Typography.Paragraph style={{ marginTop: 12 }} data-testid="report-delivered">
          {t('report.deliveredOf', { delivered: report.delivered, valid: report.valid })}
        </Typography.Paragraph>
        <Progress percent={percent} status={campaign.status === 'EM_ANDAMENTO' ? 'active' : undefined} />
      </Card>
      <Row gutter={[12, 12]}>
        {card(t('report.valid'), report.valid, 'card-valid')}
        {campaign.confirmation ? card(t('report.confirmationRequested'), report.confirmationRequested, 'card-requested') : null}
        {campaign.confirmation ? card(t('report.confirmed'), report.confirmed, 'card-confirmed') : null}
        {card(t('report.delivered'), report.delivered, 'card-delivered')}
        {card(t('report.failed'), report.failed, 'card-failed')}
        {card(t('report.optedOut'), report.optedOut, 'card-opted-out')}
        {card(t('report.connection'), campaign.whatsapp?.name ?? '—', 'card-connection')}
        {card(t('report.contactList'), campaign.contactList?.name ?? campaign.tagList?.name ?? '—', 'card-list')}
        {card(t('report.schedule'), dateTime(campaign.scheduledAt), 'card-schedule')}
        {card(t('report.conclusion'), dateTime(campaign.completedAt), 'card-conclusion')}
      </Row>
    </Space>
  );
}
