import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

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
 * The frame's page for a route of the spec (/tickets, /Kanban, …) whose feature is not installed, or is a
 * plugin outside the company's plan: it says so, instead of "page not found".
 */
export function FeatureUnavailablePage({ home }: { home: HomePath }) {
  const { t } = useTranslation('shell');
  return (
    <Result status="info" title={t('unavailable.title')} subTitle={t('unavailable.text')} extra={<HomeButton home={home} />} />
  );
}
