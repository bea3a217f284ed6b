import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const WebhooksPage = lazy(() => import('./pages/WebhooksPage').then((m) => ({ default: m.WebhooksPage })));

/** The webhooks' UI remote (loaded by the shell only for companies whose plan has useExternalApi). */
export default definePluginUi({
  id: 'webhooks',
  routes: [{ path: '/webhooks', element: <WebhooksPage /> }],
  i18n: { pt, en, es, tr },
});
