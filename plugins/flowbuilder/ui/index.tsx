import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const QueueIntegrationsPage = lazy(() =>
  import('./pages/QueueIntegrationsPage').then((m) => ({ default: m.QueueIntegrationsPage })),
);
const PhraseListsPage = lazy(() => import('./pages/PhraseListsPage').then((m) => ({ default: m.PhraseListsPage })));

/** The flow builder's UI remote (loaded by the shell only for companies whose plan has useIntegrations). */
export default definePluginUi({
  id: 'flowbuilder',
  routes: [
    { path: '/queue-integration', element: <QueueIntegrationsPage /> },
    { path: '/phrase-lists', element: <PhraseListsPage /> },
  ],
  i18n: { pt, en, es, tr },
  permissions: { 'integrations:manage': ['admin'] },
});
