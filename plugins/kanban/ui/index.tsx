import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

// The pages and the drawer's lane field load when first shown: the shell loads this entry as soon as the inbox
// shows a slot, so it stays light.
const KanbanPage = lazy(() => import('./pages/KanbanPage').then((module) => ({ default: module.KanbanPage })));
const TagsKanbanPage = lazy(() => import('./pages/TagsKanbanPage').then((module) => ({ default: module.TagsKanbanPage })));
const EmbedKeysPage = lazy(() => import('./pages/EmbedKeysPage').then((module) => ({ default: module.EmbedKeysPage })));
const LaneField = lazy(() => import('./slots/LaneField'));

/** The kanban's UI remote (loaded by the shell only for companies whose plan has useKanban). */
export default definePluginUi({
  id: 'kanban',
  routes: [
    { path: '/Kanban', element: <KanbanPage /> },
    { path: '/TagsKanban', element: <TagsKanbanPage /> },
    { path: '/kanban-embed-keys', element: <EmbedKeysPage /> },
  ],
  i18n: { pt, en, es, tr },
  // the ticket's lane in the inbox's contact drawer (docs/kanban.md)
  slots: { contactDrawer: [{ key: 'lane', Component: LaneField }] },
});
