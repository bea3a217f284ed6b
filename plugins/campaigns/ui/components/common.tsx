import { SearchOutlined, StopOutlined } from '@ant-design/icons';
import { toast, usePermission, usePlan, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Input, Result, Tag, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { CampaignStatus } from '../../shared/campaigns';

/** The documented redirect after the plan-gate toast (docs/product/automation.md#errors): one second. */
export const PLAN_REDIRECT_MS = 1_000;

/** The no-permission view of a profile user (docs/product/automation.md#screens-and-routes, docs/product/roles-and-permissions.md#roles-in-automation). */
export function NoPermission() {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      icon={<StopOutlined />}
      title={t('denied.title')}
      subTitle={t('denied.description')}
      extra={
        <Button type="primary" onClick={() => navigate('/tickets')}>
          {t('denied.back')}
        </Button>
      }
    />
  );
}

/**
 * Every campaigns page: a company whose plan lost useCampaigns gets the documented toast and goes to / after a
 * second; a profile user sees the no-permission view. The server refuses both anyway.
 */
export function CampaignsGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const plan = usePlan();
  const allowed = usePermission('campaigns:manage');
  const planDenied = plan !== undefined && !plan.useCampaigns;
  useEffect(() => {
    if (!planDenied) return;
    toast.error(t('planDenied'), 'top-center');
    const timer = setTimeout(() => navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [planDenied, navigate, t]);
  if (planDenied) return null;
  if (!allowed) return <NoPermission />;
  return <>{children}</>;
}

export interface PageHeaderProps {
  title: ReactNode;
  search?: string;
  onSearch?(value: string): void;
  searchPlaceholder?: string;
  actions?: ReactNode;
}

/** Title, search box and buttons of a page (they wrap under the title on narrow screens). */
export function PageHeader({ title, search, onSearch, searchPlaceholder, actions }: PageHeaderProps) {
  return (
    <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Flex wrap gap={8} align="center" style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
        {onSearch ? (
          <Input
            allowClear
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            placeholder={searchPlaceholder}
            prefix={<SearchOutlined />}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
            aria-label={searchPlaceholder}
          />
        ) : null}
        {actions}
      </Flex>
    </Flex>
  );
}

const STATUS_COLORS: Record<CampaignStatus, string> = {
  INATIVA: 'default',
  PROGRAMADA: 'blue',
  EM_ANDAMENTO: 'processing',
  CANCELADA: 'orange',
  FINALIZADA: 'green',
};

/** A campaign's status, translated. */
export function StatusTag({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation('campaigns');
  return (
    <Tag color={STATUS_COLORS[status]} data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** A date and time as documented (DD/MM/YYYY HH:mm), or a dash. */
export function dateTime(value: string | null): string {
  if (!value) return '—';
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
