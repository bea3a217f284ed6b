import { definePluginUi, type UiMenuEntry, type UiRoute, useAppDispatch, usePermission } from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense, useLayoutEffect } from 'react';
import { insightsApi } from './api';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Each page's code (and recharts, with the dashboard's charts) loads when its route is first shown. */
const DashboardPage = lazy(() => import('./dashboard/DashboardPage').then((module) => ({ default: module.DashboardPage })));
const ReportsPage = lazy(() => import('./reports/ReportsPage').then((module) => ({ default: module.ReportsPage })));
const MomentsPage = lazy(() => import('./moments/MomentsPage').then((module) => ({ default: module.MomentsPage })));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} style={{ padding: 8 }} />}>{children}</Suspense>;
}

/**
 * Asks for the panel's data as soon as its route is shown, beside its page's code rather than after it: the
 * page reads the same cache entries, kept live from the first answer. The calls leave in the route's commit
 * (a layout effect), where a query hook's effect would wait for the next paint and whatever tasks the
 * browser runs before it — on a busy page, hundreds of milliseconds after the page's code was asked for.
 */
function MomentsData() {
  const allowed = usePermission('moments:view');
  const dispatch = useAppDispatch();
  useLayoutEffect(() => {
    if (!allowed) return;
    const tickets = dispatch(insightsApi.endpoints.getMoments.initiate());
    const users = dispatch(insightsApi.endpoints.getMomentUsers.initiate());
    return () => {
      tickets.unsubscribe();
      users.unsubscribe();
    };
  }, [allowed, dispatch]);
  return null;
}

/** The home page `/` is the dashboard (docs/product/tickets-and-inbox.md#screens-and-routes "/ (dashboard)"). */
const routes: UiRoute[] = [
  {
    path: '/',
    element: (
      <Page>
        <DashboardPage />
      </Page>
    ),
  },
  {
    path: '/reports',
    element: (
      <Page>
        <ReportsPage />
      </Page>
    ),
  },
  {
    path: '/moments',
    element: (
      <>
        <MomentsData />
        <Page>
          <MomentsPage />
        </Page>
      </>
    ),
  },
];

/** The Management group of the side menu (docs/product/tickets-and-inbox.md#screens-and-routes): Dashboard, Reports, Moments — each for those allowed. */
const menu: UiMenuEntry[] = [
  {
    key: 'dashboard',
    group: 'management',
    path: '/',
    icon: 'DashboardOutlined',
    order: 1,
    permission: 'dashboard:view',
    label: { pt: 'Dashboard', en: 'Dashboard', es: 'Panel', tr: 'Gösterge paneli' },
  },
  {
    key: 'reports',
    group: 'management',
    path: '/reports',
    icon: 'FileSearchOutlined',
    order: 2,
    permission: 'reports:view',
    label: { pt: 'Relatórios', en: 'Reports', es: 'Informes', tr: 'Raporlar' },
  },
  {
    key: 'moments',
    group: 'management',
    path: '/moments',
    icon: 'FundViewOutlined',
    order: 3,
    permission: 'moments:view',
    label: { pt: 'Momentos', en: 'Moments', es: 'Momentos', tr: 'Anlar' },
  },
];

/** Insights: the dashboard, the ticket report and Moments (docs/insights.md). */
export default definePluginUi({ id: 'insights', routes, menu, i18n: { pt, en, es, tr } });
