import type { FeatureTranslations, UiMenuEntry, UiRoute } from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import type { SettingsTab } from '../team/settings-tab';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Queues with their chatbots, and service hours (docs/product/administration.md#screens-and-routes). Pages load when first shown. */
const QueuesPage = lazy(() => import('./QueuesPage').then((module) => ({ default: module.QueuesPage })));
const SchedulesTab = lazy(() => import('./SchedulesTab').then((module) => ({ default: module.SchedulesTab })));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} style={{ padding: 8 }} />}>{children}</Suspense>;
}

export const queuesRoutes: UiRoute[] = [
  {
    path: '/queues',
    element: (
      <Lazy>
        <QueuesPage />
      </Lazy>
    ),
  },
];

/** Administration group (docs/product/tickets-and-inbox.md#side-menu): Queues is its 9th entry, after Users. */
export const queuesMenu: UiMenuEntry[] = [
  {
    key: 'queues',
    group: 'admin',
    path: '/queues',
    icon: 'ApartmentOutlined',
    order: 9,
    label: { pt: 'Filas & Chatbot', en: 'Queues & Chatbot', es: 'Colas & Chatbot', tr: 'Kuyruklar & Chatbot' },
  },
];

export const queuesLocales: FeatureTranslations = { pt, en, es, tr };

/** The Settings page's Schedules tab (company service hours), shown when scheduleType is company. */
export const queuesSettingsTabs: SettingsTab[] = [
  {
    key: 'schedules',
    labelKey: 'queues.hours.tab',
    visible: (settings) => settings.scheduleType === 'company',
    render: () => (
      <Lazy>
        <SchedulesTab />
      </Lazy>
    ),
  },
];
