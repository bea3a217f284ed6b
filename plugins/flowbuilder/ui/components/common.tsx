import { SearchOutlined, StopOutlined } from '@ant-design/icons';
import { toast, usePermission, usePlan, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Input, Result, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useNavigate } from 'react-router';

/** The documented redirect after the plan-gate toast (docs/product/automation.md#errors): one second. */
export const PLAN_REDIRECT_MS = 1_000;

/**
 * Every page of the feature: a company whose plan lost useIntegrations gets the documented toast and goes to
 * / after a second; a profile user sees the no-access view. The server refuses both anyway.
 */
export function IntegrationsGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation('flowbuilder');
  const navigate = useNavigate();
  const plan = usePlan();
  const allowed = usePermission('integrations:manage');
  const planDenied = plan !== undefined && !plan.useIntegrations;
  useEffect(() => {
    if (!planDenied) return;
    toast.error(t('planDenied'), 'top-center');
    const timer = setTimeout(() => navigate('/'), PLAN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [planDenied, navigate, t]);
  if (planDenied) return null;
  if (!allowed) {
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
  return <>{children}</>;
}

/** Title, search box and buttons of a page (they wrap under the title on narrow screens). */
export function PageHeader(props: { title: ReactNode; search?: string; onSearch?(value: string): void; actions?: ReactNode }) {
  const { t } = useTranslation('flowbuilder');
  return (
    <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {props.title}
      </Typography.Title>
      <Flex wrap gap={8} align="center" style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
        {props.onSearch ? (
          <Input
            allowClear
            value={props.search}
            onChange={(event) => props.onSearch?.(event.target.value)}
            placeholder={t('common.search')}
            aria-label={t('common.search')}
            prefix={<SearchOutlined />}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
          />
        ) : null}
        {props.actions}
      </Flex>
    </Flex>
  );
}
