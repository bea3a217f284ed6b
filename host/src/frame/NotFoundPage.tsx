import { toast } from '@balcao/plugin-sdk/ui';
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** docs/product/automation.md#errors: the toast, then home after 1 second. */
export const PLAN_REFUSED_REDIRECT_MS = 1000;

/** Where the pages below send the user: '/', or the first page of the menu when no feature serves '/'. */
export type HomePath = string | null;

function HomeButton({ home }: { home: HomePath }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  if (home === null) return null;
  return (
    <Button type="primary" onClick={() => navigate(home)}>
      {t('notFound.home')}
    </Button>
  );
}

/** The frame's page for an address no feature serves. */
export function NotFoundPage({ home = '/' }: { home?: HomePath }) {
  const { t } = useTranslation('shell');
  return <Result status="404" title={t('notFound.title')} subTitle={t('notFound.text')} extra={<HomeButton home={home} />} />;
}

/**
 * The frame's page for a documented route (/tickets, /reports, …) whose feature is not installed: it says
 * so, instead of "page not found". (A route outside the company's plan is `PlanRefusedPage`'s.)
 */
export function FeatureUnavailablePage({ home }: { home: HomePath }) {
  const { t } = useTranslation('shell');
  return (
    <Result status="info" title={t('unavailable.title')} subTitle={t('unavailable.text')} extra={<HomeButton home={home} />} />
  );
}

/**
 * A documented route that the company's plan doesn't include (/Kanban without useKanban, …): the documented
 * toast "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando." and home
 * after 1 second (docs/product/automation.md#errors). The page stays blank meanwhile: there is nothing of it to show.
 */
export function PlanRefusedPage({ home }: { home: HomePath }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  useEffect(() => {
    toast.error(t('planRefused'));
    const timer = setTimeout(() => navigate(home ?? '/', { replace: true }), PLAN_REFUSED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [home, navigate, t]);
  return <div data-testid="plan-refused" />;
}
