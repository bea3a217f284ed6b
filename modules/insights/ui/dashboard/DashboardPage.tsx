import { FilterOutlined } from '@ant-design/icons';
import { PluginSlot, showError, toast, usePermission, useSession, useSlotEntries, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Badge,
  Button,
  Card,
  Col,
  Flex,
  Progress,
  Row,
  Select,
  Skeleton,
  Statistic,
  Table,
  Tabs,
  Tooltip,
  Typography,
} from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import type { DashboardAttendant, DashboardCounters, TicketsDayPoint } from '../../shared/types';
import { useGetDashboardQuery, useGetTicketsDayQuery, useGetTicketsUsersQuery, useSetTimeZoneMutation } from '../api';
import { formatDay, formatMinutes, monthToDate } from '../shared/format';
import { type DayRangeValue, RangeFilter } from '../shared/RangeFilter';

/** recharts loads with the first chart, in a chunk of its own. */
const charts = () => import('./Charts');
const TicketsPerDayChart = lazy(() => charts().then((module) => ({ default: module.TicketsPerDayChart })));
const TicketsPerUserChart = lazy(() => charts().then((module) => ({ default: module.TicketsPerUserChart })));
const NpsGauge = lazy(() => charts().then((module) => ({ default: module.NpsGauge })));
const NpsDistributionChart = lazy(() => charts().then((module) => ({ default: module.NpsDistributionChart })));

const ChartFallback = () => <Skeleton.Node active style={{ width: '100%', height: 280 }} />;

/**
 * The dashboard, home page `/` (docs/product/tickets-and-inbox.md#screens-and-routes): Indicators, Assessments (NPS) and Attendants of a range of days
 * (the month so far by default), for admins and profile users with showDashboard; others go to /tickets.
 */
export function DashboardPage() {
  const allowed = usePermission('dashboard:view');
  // `/` is never a dead end: whoever may not see the dashboard starts at the tickets
  return allowed ? <Dashboard /> : <Navigate to="/tickets" replace />;
}

function Dashboard() {
  const { t } = useTranslation('insights');
  const [range, setRange] = useState<DayRangeValue>(monthToDate);
  const [filterOpen, setFilterOpen] = useState(false);
  const dashboard = useGetDashboardQuery(range);
  const days = useGetTicketsDayQuery(range);
  const users = useGetTicketsUsersQuery(range);

  const failed = dashboard.isError || days.isError || users.isError;
  useEffect(() => {
    if (failed) toast.error(t('dashboard.loadError'));
  }, [failed, t]);

  const counters = dashboard.data?.counters;
  const zone = dashboard.data?.range.timezone;
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('dashboard.title')}
        </Typography.Title>
        <Flex gap={8} align="center" wrap>
          <Typography.Text type="secondary">
            {formatDay(range.from)} – {formatDay(range.to)}
          </Typography.Text>
          <Button icon={<FilterOutlined />} onClick={() => setFilterOpen((open) => !open)} aria-expanded={filterOpen}>
            {t('filter.toggle')}
          </Button>
        </Flex>
      </Flex>
      {filterOpen && (
        <Card size="small">
          <Flex vertical gap={12}>
            <RangeFilter value={range} onApply={setRange} />
            {zone && <TimeZoneLine zone={zone} />}
          </Flex>
        </Card>
      )}
      <Tabs
        items={[
          {
            key: 'indicators',
            label: t('dashboard.tabs.indicators'),
            children: (
              <Indicators
                counters={counters}
                single={range.from === range.to}
                days={days.data?.data}
                users={users.data?.data}
                loading={dashboard.isLoading}
              />
            ),
          },
          { key: 'assessments', label: t('dashboard.tabs.assessments'), children: <Assessments counters={counters} /> },
          {
            key: 'attendants',
            label: t('dashboard.tabs.attendants'),
            children: <Attendants rows={dashboard.data?.attendants} loading={dashboard.isFetching && !dashboard.data} />,
          },
        ]}
      />
      <FeatureCards range={range} />
    </Flex>
  );
}

/** Minimum width of a card features add to the dashboard; as many columns as fit. */
const FEATURE_CARD_MIN_WIDTH = 280;

/** The cards features add below the tabs (the `dashboardCards` slot), for the range on screen. */
function FeatureCards({ range }: { range: DayRangeValue }) {
  const cards = useSlotEntries('dashboardCards');
  if (cards.length === 0) return null;
  return (
    <div
      data-testid="dashboard-feature-cards"
      style={{ display: 'grid', gap: 16, gridTemplateColumns: `repeat(auto-fill, minmax(${FEATURE_CARD_MIN_WIDTH}px, 1fr))` }}
    >
      <PluginSlot name="dashboardCards" props={{ range }} fallback={<Skeleton active />} />
    </div>
  );
}

/** The company's time zone, which admins may change (the days are counted in it). */
function TimeZoneLine({ zone }: { zone: string }) {
  const { t } = useTranslation('insights');
  const session = useSession();
  const [save, saving] = useSetTimeZoneMutation();
  const zones = useMemo(() => {
    const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
    return [...new Set([zone, 'UTC', ...supported])].map((value) => ({ value, label: value }));
  }, [zone]);
  const admin = session?.profile === 'admin' || session?.super === true;
  return (
    <Flex gap={8} align="center" wrap>
      <Typography.Text>{t('filter.timezone')}:</Typography.Text>
      {admin ? (
        <Select
          showSearch
          style={{ minWidth: 240 }}
          value={zone}
          options={zones}
          loading={saving.isLoading}
          aria-label={t('filter.timezone')}
          onChange={(value) =>
            save(value)
              .unwrap()
              .then(() => toast.success(t('filter.timezoneSaved')), showError)
          }
        />
      ) : (
        <Typography.Text strong>{zone}</Typography.Text>
      )}
      <Typography.Text type="secondary">{t('filter.timezoneHint')}</Typography.Text>
    </Flex>
  );
}

function CounterCard({ title, value, hint, loading }: { title: string; value: ReactNode; hint: string; loading: boolean }) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Tooltip title={hint}>
        <Statistic title={title} value={loading ? undefined : (value as string | number)} loading={loading} />
      </Tooltip>
    </Card>
  );
}

const COUNTER_COLS = { xs: 12, sm: 12, md: 8, lg: 6, xl: 4 };

function Indicators({
  counters,
  single,
  days,
  users,
  loading,
}: {
  counters: DashboardCounters | undefined;
  single: boolean;
  days: TicketsDayPoint[] | undefined;
  users: Array<{ name: string; tickets: number }> | undefined;
  loading: boolean;
}) {
  const { t } = useTranslation('insights');
  const live = t('dashboard.hints.live');
  const inRange = t('dashboard.hints.range');
  const cards: Array<{ key: string; value: ReactNode; hint: string }> = counters
    ? [
        { key: 'supportHappening', value: counters.supportHappening, hint: live },
        { key: 'supportPending', value: counters.supportPending, hint: live },
        { key: 'supportGroups', value: counters.supportGroups, hint: live },
        { key: 'supportFinished', value: counters.supportFinished, hint: inRange },
        { key: 'tickets', value: counters.tickets, hint: inRange },
        { key: 'leads', value: counters.leads, hint: inRange },
        { key: 'activeTickets', value: counters.activeTickets, hint: inRange },
        { key: 'passiveTickets', value: counters.passiveTickets, hint: inRange },
        { key: 'avgWaitTime', value: formatMinutes(t, counters.avgWaitTime), hint: inRange },
        { key: 'avgSupportTime', value: formatMinutes(t, counters.avgSupportTime), hint: inRange },
      ]
    : Array.from({ length: 10 }, (_, i) => ({ key: `loading-${i}`, value: 0, hint: '' }));
  return (
    <Flex vertical gap={16}>
      <Row gutter={[12, 12]}>
        {cards.map((card) => (
          <Col key={card.key} {...COUNTER_COLS}>
            <CounterCard
              title={counters ? t(`dashboard.counters.${card.key}`) : ''}
              value={card.value}
              hint={card.hint}
              loading={loading || !counters}
            />
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={single ? t('dashboard.charts.perHour') : t('dashboard.charts.perDay')}>
            {days ? (
              <Suspense fallback={<ChartFallback />}>
                <TicketsPerDayChart data={days} />
              </Suspense>
            ) : (
              <ChartFallback />
            )}
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('dashboard.charts.perUser')}>
            {users ? (
              <Suspense fallback={<ChartFallback />}>
                <TicketsPerUserChart data={users} />
              </Suspense>
            ) : (
              <ChartFallback />
            )}
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}

function Assessments({ counters }: { counters: DashboardCounters | undefined }) {
  const { t } = useTranslation('insights');
  if (!counters) return <Skeleton active paragraph={{ rows: 8 }} />;
  const empty = counters.withRating === 0;
  const bands = [
    { key: 'promoters', value: counters.npsPromotersPerc, color: 'var(--ant-color-success, #52c41a)' },
    { key: 'passives', value: counters.npsPassivePerc, color: 'var(--ant-color-warning, #faad14)' },
    { key: 'detractors', value: counters.npsDetractorsPerc, color: 'var(--ant-color-error, #ff4d4f)' },
  ];
  const cards = [
    { key: 'waitRating', value: counters.waitRating },
    { key: 'withRating', value: counters.withRating },
    { key: 'withoutRating', value: counters.withoutRating },
    { key: 'percRating', value: `${counters.percRating.toLocaleString()}%` },
    { key: 'avgRating', value: empty ? '–' : counters.avgRating.toLocaleString() },
  ];
  return (
    <Flex vertical gap={16}>
      <Row gutter={[12, 12]}>
        {cards.map((card) => (
          <Col key={card.key} {...COUNTER_COLS}>
            <CounterCard
              title={t(`dashboard.nps.${card.key}`)}
              value={card.value}
              hint={t('dashboard.hints.range')}
              loading={false}
            />
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('dashboard.nps.score')}>
            <Suspense fallback={<ChartFallback />}>
              <NpsGauge score={counters.npsScore} empty={empty} />
            </Suspense>
            <Flex vertical gap={4}>
              {bands.map((band) => (
                <div key={band.key}>
                  <Typography.Text>{t(`dashboard.nps.${band.key}`)}</Typography.Text>
                  <Progress percent={band.value} strokeColor={band.color} format={(percent) => `${percent}%`} />
                </div>
              ))}
            </Flex>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('dashboard.nps.distribution')}>
            {empty ? (
              <Typography.Paragraph type="secondary">{t('dashboard.nps.empty')}</Typography.Paragraph>
            ) : (
              <Suspense fallback={<ChartFallback />}>
                <NpsDistributionChart distribution={counters.npsDistribution} />
              </Suspense>
            )}
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}

function Attendants({ rows, loading }: { rows: DashboardAttendant[] | undefined; loading: boolean }) {
  const { t } = useTranslation('insights');
  return (
    <Table<DashboardAttendant>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={rows ?? []}
      pagination={false}
      scroll={{ x: 720 }}
      locale={{ emptyText: t('dashboard.attendants.empty') }}
      columns={[
        { key: 'name', title: t('dashboard.attendants.name'), dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
        {
          key: 'online',
          title: t('dashboard.attendants.status'),
          render: (_, row) => (
            <Badge
              status={row.online ? 'success' : 'default'}
              text={row.online ? t('dashboard.attendants.online') : t('dashboard.attendants.offline')}
            />
          ),
        },
        {
          key: 'tickets',
          title: t('dashboard.attendants.tickets'),
          dataIndex: 'tickets',
          sorter: (a, b) => a.tickets - b.tickets,
        },
        {
          key: 'avgWaitTime',
          title: t('dashboard.attendants.avgWaitTime'),
          render: (_, row) => formatMinutes(t, row.avgWaitTime),
          sorter: (a, b) => a.avgWaitTime - b.avgWaitTime,
        },
        {
          key: 'avgSupportTime',
          title: t('dashboard.attendants.avgSupportTime'),
          render: (_, row) => formatMinutes(t, row.avgSupportTime),
          sorter: (a, b) => a.avgSupportTime - b.avgSupportTime,
        },
        {
          key: 'rating',
          title: t('dashboard.attendants.rating'),
          render: (_, row) => (row.countRating > 0 ? `${row.rating.toLocaleString()} / 10` : '–'),
          sorter: (a, b) => a.rating - b.rating,
        },
        {
          key: 'countRating',
          title: t('dashboard.attendants.countRating'),
          dataIndex: 'countRating',
          sorter: (a, b) => a.countRating - b.countRating,
        },
      ]}
    />
  );
}
