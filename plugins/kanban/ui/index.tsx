import { definePluginUi } from '@balcao/plugin-sdk/ui';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';
import { EmbedKeysPage } from './pages/EmbedKeysPage';
import { KanbanPage } from './pages/KanbanPage';
import { TagsKanbanPage } from './pages/TagsKanbanPage';

/** The kanban's UI remote (loaded by the shell only for companies whose plan has useKanban). */
export default definePluginUi({
  id: 'kanban',
  routes: [
    { path: '/Kanban', element: <KanbanPage /> },
    { path: '/TagsKanban', element: <TagsKanbanPage /> },
    { path: '/kanban-embed-keys', element: <EmbedKeysPage /> },
  ],
  i18n: { pt, en, es, tr },
});
