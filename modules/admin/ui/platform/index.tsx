import type { FeatureTranslations, PluginUiSlots, UiMenuEntry, UiRoute } from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import type { SettingsTab } from '../team/settings-tab';
import { AnnouncementsPopover } from './announcements/AnnouncementsPopover';
import { useListHelpsQuery } from './api';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** The super user's platform pages, each loaded when first shown. */
const CompaniesPage = lazy(() => import('./companies/CompaniesPage').then((module) => ({ default: module.CompaniesPage })));
const CompaniesManager = lazy(() =>
  import('./companies/CompaniesManager').then((module) => ({ default: module.CompaniesManager })),
);
const PlansManager = lazy(() => import('./plans/PlansManager').then((module) => ({ default: module.PlansManager })));
const HelpsManager = lazy(() => import('./helps/HelpsManager').then((module) => ({ default: module.HelpsManager })));
const HelpsPage = lazy(() => import('./helps/HelpsPage').then((module) => ({ default: module.HelpsPage })));
const AnnouncementsPage = lazy(() =>
  import('./announcements/AnnouncementsPage').then((module) => ({ default: module.AnnouncementsPage })),
);
const WhitelabelTab = lazy(() => import('./whitelabel/WhitelabelTab').then((module) => ({ default: module.WhitelabelTab })));

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} style={{ padding: 8 }} />}>{children}</Suspense>;
}

export const platformRoutes: UiRoute[] = [
  {
    path: '/companies',
    element: (
      <Page>
        <CompaniesPage />
      </Page>
    ),
  },
  {
    path: '/helps',
    element: (
      <Page>
        <HelpsPage />
      </Page>
    ),
  },
  {
    path: '/announcements',
    element: (
      <Page>
        <AnnouncementsPage />
      </Page>
    ),
  },
];

/** docs/product/tickets-and-inbox.md#screens-and-routes: Helps shows only when the help list is non-empty. */
function useHelpsVisible(): boolean {
  const { data } = useListHelpsQuery();
  return (data?.length ?? 0) > 0;
}

/** Side-menu entries (docs/product/tickets-and-inbox.md#screens-and-routes): Helps in the main group; Announcements and Companies for the super user. */
export const platformMenu: UiMenuEntry[] = [
  {
    key: 'helps',
    group: 'main',
    path: '/helps',
    icon: 'QuestionCircleOutlined',
    order: 8,
    useVisible: useHelpsVisible,
    label: { pt: 'Ajuda', en: 'Help', es: 'Ayuda', tr: 'Yardım' },
  },
  {
    key: 'announcements',
    group: 'admin',
    path: '/announcements',
    icon: 'NotificationOutlined',
    order: 3,
    superOnly: true,
    label: { pt: 'Informativos', en: 'Announcements', es: 'Informativos', tr: 'Duyurular' },
  },
  {
    key: 'companies',
    group: 'admin',
    path: '/companies',
    icon: 'BankOutlined',
    order: 20,
    superOnly: true,
    label: { pt: 'Empresas', en: 'Companies', es: 'Empresas', tr: 'Şirketler' },
  },
];

/** The top bar's announcements popover, for everyone. */
export const platformSlots: PluginUiSlots = { topBar: [{ key: 'announcements', Component: AnnouncementsPopover, order: 20 }] };

/** The platform area's texts in the `admin` namespace: `platform.*` and its `errors.*`. */
export const platformLocales: FeatureTranslations = { pt, en, es, tr };

/** The Settings page's super-user tabs: Companies, Plans, Helps, Whitelabel. */
export const platformSettingsTabs: SettingsTab[] = [
  {
    key: 'companies',
    labelKey: 'platform.tabs.companies',
    superOnly: true,
    render: () => (
      <Page>
        <CompaniesManager />
      </Page>
    ),
  },
  {
    key: 'plans',
    labelKey: 'platform.tabs.plans',
    superOnly: true,
    render: () => (
      <Page>
        <PlansManager />
      </Page>
    ),
  },
  {
    key: 'helps',
    labelKey: 'platform.tabs.helps',
    superOnly: true,
    render: () => (
      <Page>
        <HelpsManager />
      </Page>
    ),
  },
  {
    key: 'whitelabel',
    labelKey: 'platform.tabs.whitelabel',
    superOnly: true,
    render: () => (
      <Page>
        <WhitelabelTab />
      </Page>
    ),
  },
];
