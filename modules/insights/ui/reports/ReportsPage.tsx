import { EyeOutlined, FileExcelOutlined, FileTextOutlined, HistoryOutlined } from '@ant-design/icons';
import { showError, toast, useAppDispatch, usePermission, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Flex,
  Input,
  Modal,
  Progress,
  Row,
  Select,
  Table,
  type TableProps,
  Tag,
  Timeline,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { NPS_BANDS, REPORT_STATUSES, type ReportTicket } from '../../shared/types';
import {
  type ReportArgs,
  reportParams,
  useGetReportQuery,
  useGetTicketLogQuery,
  useListReportConnectionsQuery,
  useListReportQueuesQuery,
  useListReportTagsQuery,
  useListReportUsersQuery,
} from '../api';
import { AccessDenied } from '../shared/AccessDenied';
import { formatDateTime, formatMinutes, monthToDate } from '../shared/format';
import { downloadReport } from './export';

/** docs/product/administration.md#constants-and-limits: page sizes 5, 10, 20, 50; 10 by default. */
const PAGE_SIZES = [5, 10, 20, 50];

type Filters = Omit<ReportArgs, 'page' | 'pageSize' | 'sortBy' | 'sortOrder'>;

/**
 * The ticket report (docs/product/administration.md#reports): filters, server-side paging and sorting, per-row ticket
 * log and open-ticket actions, and the .xlsx / .csv export with its progress. Admins, and profile users with
 * showDashboard (their queues).
 */
export function ReportsPage() {
  const allowed = usePermission('reports:view');
  return allowed ? <Reports /> : <AccessDenied />;
}

function Reports() {
  const { t, i18n } = useTranslation('insights');
  const session = useSession();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [draft, setDraft] = useState<Filters>(() => {
    const { from, to } = monthToDate();
    return { dateFrom: from, dateTo: to };
  });
  const [filters, setFilters] = useState<Filters>(draft);
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const [sort, setSort] = useState<{ sortBy?: string; sortOrder?: 'asc' | 'desc' }>({});
  const [logTicket, setLogTicket] = useState<number | null>(null);
  const [exporting, setExporting] = useState<{ written: number; total: number } | null>(null);
  const report = useGetReportQuery({ ...filters, ...page, ...sort });
  const queues = useListReportQueuesQuery();
  const users = useListReportUsersQuery();
  const tags = useListReportTagsQuery();
  const connections = useListReportConnectionsQuery();

  const apply = () => {
    if (!draft.dateFrom || !draft.dateTo) {
      toast.warning(t('filter.required'));
      return;
    }
    setFilters(draft);
    setPage((current) => ({ ...current, page: 1 }));
  };

  const exportAs = async (format: 'xlsx' | 'csv') => {
    if (!session) return;
    setExporting({ written: 0, total: report.data?.totalTickets.total ?? 0 });
    try {
      await downloadReport(reportParams({ ...filters, ...sort }), {
        companyId: session.companyId,
        format,
        language: (i18n.resolvedLanguage ?? 'pt').slice(0, 2),
        dispatch,
        onProgress: setExporting,
      });
      toast.success(t('reports.exported'));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(null);
    }
  };

  const isAdmin = session?.profile === 'admin' || session?.super === true;
  // docs/product/tickets-and-inbox.md#screens-and-routes: admins, or the ticket's own agent (a waiting ticket of their queue is theirs to take)
  const canOpen = (row: ReportTicket) => isAdmin || row.userId === null || row.userId === session?.id;
  const sortOrderOf = (key: string) =>
    sort.sortBy === key
      ? sort.sortOrder === 'asc'
        ? 'ascend'
        : 'descend'
      : key === 'createdAt' && !sort.sortBy
        ? 'descend'
        : null;

  const columns: TableProps<ReportTicket>['columns'] = [
    { key: 'id', dataIndex: 'id', title: t('reports.columns.id'), sorter: true, sortOrder: sortOrderOf('id'), width: 80 },
    { key: 'whatsappName', dataIndex: 'whatsappName', title: t('reports.columns.whatsappName'), ellipsis: true },
    {
      key: 'contactName',
      dataIndex: 'contactName',
      title: t('reports.columns.contactName'),
      sorter: true,
      sortOrder: sortOrderOf('contactName'),
      ellipsis: true,
    },
    {
      key: 'userName',
      dataIndex: 'userName',
      title: t('reports.columns.userName'),
      sorter: true,
      sortOrder: sortOrderOf('userName'),
      ellipsis: true,
    },
    {
      key: 'queueName',
      dataIndex: 'queueName',
      title: t('reports.columns.queueName'),
      sorter: true,
      sortOrder: sortOrderOf('queueName'),
      ellipsis: true,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('reports.columns.status'),
      sorter: true,
      sortOrder: sortOrderOf('status'),
      render: (status: string) => <Tag>{t(`reports.statuses.${status}`)}</Tag>,
    },
    { key: 'lastMessage', dataIndex: 'lastMessage', title: t('reports.columns.lastMessage'), ellipsis: true },
    {
      key: 'createdAt',
      dataIndex: 'createdAt',
      title: t('reports.columns.createdAt'),
      sorter: true,
      sortOrder: sortOrderOf('createdAt'),
      render: formatDateTime,
    },
    {
      key: 'closedAt',
      dataIndex: 'closedAt',
      title: t('reports.columns.closedAt'),
      sorter: true,
      sortOrder: sortOrderOf('closedAt'),
      render: formatDateTime,
    },
    {
      key: 'supportTime',
      dataIndex: 'supportTime',
      title: t('reports.columns.supportTime'),
      render: (minutes: number | null) => (minutes === null ? '' : formatMinutes(t, minutes)),
    },
    { key: 'nps', dataIndex: 'NPS', title: t('reports.columns.nps'), sorter: true, sortOrder: sortOrderOf('nps'), width: 80 },
    {
      key: 'actions',
      title: t('reports.columns.actions'),
      fixed: 'right',
      width: 96,
      render: (_, row) => (
        <Flex gap={4}>
          <Tooltip title={t('reports.actions.log')}>
            <Button
              size="small"
              icon={<HistoryOutlined />}
              aria-label={t('reports.actions.log')}
              onClick={() => setLogTicket(row.id)}
            />
          </Tooltip>
          <Tooltip title={t('reports.actions.open')}>
            <Button
              size="small"
              icon={<EyeOutlined />}
              aria-label={t('reports.actions.open')}
              disabled={!canOpen(row)}
              onClick={() => navigate(`/tickets/${row.uuid}`)}
            />
          </Tooltip>
        </Flex>
      ),
    },
  ];

  const options = (rows: Array<{ id: number; name: string }> | undefined) =>
    (rows ?? []).map((row) => ({ value: row.id, label: row.name }));
  const filterCols = { xs: 24, sm: 12, lg: 8, xl: 6 };
  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('reports.title')}
        </Typography.Title>
        <Flex gap={8} wrap>
          <Button icon={<FileExcelOutlined />} onClick={() => exportAs('xlsx')} disabled={exporting !== null}>
            {t('reports.exportExcel')}
          </Button>
          <Button icon={<FileTextOutlined />} onClick={() => exportAs('csv')} disabled={exporting !== null}>
            {t('reports.exportCsv')}
          </Button>
        </Flex>
      </Flex>
      {exporting && (
        <Card size="small" role="status">
          <Typography.Text>{t('reports.exporting', exporting)}</Typography.Text>
          <Progress percent={exporting.total > 0 ? Math.floor((exporting.written * 100) / exporting.total) : 0} status="active" />
        </Card>
      )}
      <Card size="small">
        <Row gutter={[8, 8]}>
          <Col {...filterCols}>
            <Input.Search
              allowClear
              placeholder={t('reports.search')}
              aria-label={t('reports.search')}
              value={draft.searchParam}
              onChange={(event) => setDraft({ ...draft, searchParam: event.target.value })}
              onSearch={apply}
            />
          </Col>
          <Col {...filterCols}>
            <Flex gap={8}>
              <DatePicker
                style={{ flex: 1 }}
                format="DD/MM/YYYY"
                aria-label={t('filter.start')}
                placeholder={t('filter.start')}
                value={draft.dateFrom ? dayjs(draft.dateFrom) : null}
                onChange={(day) => setDraft({ ...draft, dateFrom: day ? day.format('YYYY-MM-DD') : '' })}
                disabledDate={(day) => (draft.dateTo ? day.isAfter(dayjs(draft.dateTo), 'day') : false)}
              />
              <DatePicker
                style={{ flex: 1 }}
                format="DD/MM/YYYY"
                aria-label={t('filter.end')}
                placeholder={t('filter.end')}
                value={draft.dateTo ? dayjs(draft.dateTo) : null}
                onChange={(day) => setDraft({ ...draft, dateTo: day ? day.format('YYYY-MM-DD') : '' })}
                disabledDate={(day) => (draft.dateFrom ? day.isBefore(dayjs(draft.dateFrom), 'day') : false)}
              />
            </Flex>
          </Col>
          <Col {...filterCols}>
            <Select
              mode="multiple"
              allowClear
              style={{ width: '100%' }}
              placeholder={t('reports.status')}
              aria-label={t('reports.status')}
              value={draft.status ?? []}
              options={REPORT_STATUSES.map((status) => ({ value: status, label: t(`reports.statuses.${status}`) }))}
              onChange={(status) => setDraft({ ...draft, status })}
            />
          </Col>
          <Col {...filterCols}>
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              style={{ width: '100%' }}
              placeholder={t('reports.queues')}
              aria-label={t('reports.queues')}
              value={draft.queueIds ?? []}
              options={options(queues.data)}
              onChange={(queueIds) => setDraft({ ...draft, queueIds })}
            />
          </Col>
          <Col {...filterCols}>
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              style={{ width: '100%' }}
              placeholder={t('reports.users')}
              aria-label={t('reports.users')}
              value={draft.users ?? []}
              options={options(users.data)}
              onChange={(ids) => setDraft({ ...draft, users: ids })}
            />
          </Col>
          {(connections.data?.length ?? 0) > 0 && (
            <Col {...filterCols}>
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                style={{ width: '100%' }}
                placeholder={t('reports.connections')}
                aria-label={t('reports.connections')}
                value={draft.whatsappId}
                options={options(connections.data)}
                onChange={(whatsappId) => setDraft({ ...draft, whatsappId })}
              />
            </Col>
          )}
          <Col {...filterCols}>
            <Select
              mode="multiple"
              allowClear
              optionFilterProp="label"
              style={{ width: '100%' }}
              placeholder={t('reports.tags')}
              aria-label={t('reports.tags')}
              value={draft.tags ?? []}
              options={options(tags.data)}
              onChange={(ids) => setDraft({ ...draft, tags: ids })}
            />
          </Col>
          <Col {...filterCols}>
            <Select
              mode="multiple"
              allowClear
              style={{ width: '100%' }}
              placeholder={t('reports.nps')}
              aria-label={t('reports.nps')}
              value={draft.nps ?? []}
              options={NPS_BANDS.map((band) => ({ value: band, label: t(`reports.bands.${band}`) }))}
              onChange={(nps) => setDraft({ ...draft, nps })}
            />
          </Col>
          <Col {...filterCols}>
            <Flex gap={8} align="center" justify="space-between" wrap>
              <Checkbox
                checked={draft.onlyRated === true}
                onChange={(event) => setDraft({ ...draft, onlyRated: event.target.checked })}
              >
                {t('reports.onlyRated')}
              </Checkbox>
              <Flex gap={8}>
                <Button
                  onClick={() => {
                    const { from, to } = monthToDate();
                    const cleared = { dateFrom: from, dateTo: to };
                    setDraft(cleared);
                    setFilters(cleared);
                    setPage((current) => ({ ...current, page: 1 }));
                  }}
                >
                  {t('reports.clear')}
                </Button>
                <Button type="primary" onClick={apply}>
                  {t('filter.apply')}
                </Button>
              </Flex>
            </Flex>
          </Col>
        </Row>
      </Card>
      <Table<ReportTicket>
        rowKey="id"
        size="small"
        loading={report.isFetching}
        dataSource={report.data?.tickets ?? []}
        columns={columns}
        scroll={{ x: 1300 }}
        locale={{ emptyText: t('reports.empty') }}
        onChange={(pagination, _filters, sorter) => {
          const single = Array.isArray(sorter) ? sorter[0] : sorter;
          const key = single?.order ? String(single.columnKey) : undefined;
          setSort(key ? { sortBy: key, sortOrder: single?.order === 'ascend' ? 'asc' : 'desc' } : {});
          setPage({ page: pagination.current ?? 1, pageSize: pagination.pageSize ?? 10 });
        }}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: report.data?.totalTickets.total ?? 0,
          pageSizeOptions: PAGE_SIZES,
          showSizeChanger: true,
          showTotal: (total) => t('reports.total', { count: total }),
        }}
      />
      <TicketLogModal ticketId={logTicket} onClose={() => setLogTicket(null)} />
    </Flex>
  );
}

function TicketLogModal({ ticketId, onClose }: { ticketId: number | null; onClose(): void }) {
  const { t } = useTranslation('insights');
  const log = useGetTicketLogQuery(ticketId ?? 0, { skip: ticketId === null });
  return (
    <Modal
      open={ticketId !== null}
      onCancel={onClose}
      footer={null}
      title={t('reports.log.title', { id: ticketId })}
      destroyOnHidden
    >
      {log.isFetching ? (
        <Typography.Text type="secondary">…</Typography.Text>
      ) : (log.data?.length ?? 0) === 0 ? (
        <Typography.Text type="secondary">{t('reports.log.empty')}</Typography.Text>
      ) : (
        <Timeline
          items={(log.data ?? []).map((entry) => ({
            key: entry.id,
            children: (
              <>
                <Typography.Text strong>{entry.user?.name ?? t('reports.log.system')}</Typography.Text>{' '}
                {t(`reports.log.types.${entry.type}`, { defaultValue: entry.type })}
                {entry.queue ? <Tag style={{ marginInlineStart: 8 }}>{entry.queue.name}</Tag> : null}
                <div>
                  <Typography.Text type="secondary">{formatDateTime(entry.createdAt)}</Typography.Text>
                </div>
              </>
            ),
          }))}
        />
      )}
    </Modal>
  );
}
