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
const FlowListPage = lazy(() => import('./pages/FlowListPage').then((m) => ({ default: m.FlowListPage })));
// the canvas (React Flow) loads only with the editor and the replay
const FlowEditorPage = lazy(() => import('./pages/FlowEditorPage').then((m) => ({ default: m.FlowEditorPage })));
const FlowReplayPage = lazy(() => import('./pages/FlowReplayPage').then((m) => ({ default: m.FlowReplayPage })));
const FlowPathButton = lazy(() => import('./slots/FlowPathButton'));

/** The flow builder's UI remote (loaded by the shell only for companies whose plan has useIntegrations). */
export default definePluginUi({
  id: 'flowbuilder',
  routes: [
    { path: '/queue-integration', element: <QueueIntegrationsPage /> },
    { path: '/phrase-lists', element: <PhraseListsPage /> },
    { path: '/flowbuilders', element: <FlowListPage /> },
    { path: '/flowbuilder/:id?', element: <FlowEditorPage /> },
    { path: '/flowbuilder/runs/:ticketId', element: <FlowReplayPage /> },
  ],
  i18n: { pt, en, es, tr },
  slots: {
    ticketHeaderActions: [{ key: 'flow-path', Component: FlowPathButton, permission: 'integrations:manage' }],
  },
  permissions: { 'integrations:manage': ['admin'] },
});
