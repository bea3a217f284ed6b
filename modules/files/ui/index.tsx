import { definePluginUi, type UiRoute } from '@balcao/plugin-sdk/ui';
import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const FilesPage = lazy(() => import('./FilesPage').then((module) => ({ default: module.FilesPage })));

const routes: UiRoute[] = [
  {
    path: '/files',
    element: (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} style={{ padding: 8 }} />}>
        <FilesPage />
      </Suspense>
    ),
  },
];

/**
 * File lists (docs/product/automation.md "File lists"). Files is the 14th entry of the Administration group
 * (docs/product/tickets-and-inbox.md "Side menu"), for holders of `files:manage` (admins).
 */
export default definePluginUi({
  id: 'files',
  routes,
  menu: [
    {
      key: 'files',
      group: 'admin',
      path: '/files',
      icon: 'FileOutlined',
      order: 14,
      permission: 'files:manage',
      label: { pt: 'Lista de arquivos', en: 'File lists', es: 'Lista de archivos', tr: 'Dosya listeleri' },
    },
  ],
  i18n: { pt, en, es, tr },
  permissions: { 'files:manage': ['admin'] },
});
