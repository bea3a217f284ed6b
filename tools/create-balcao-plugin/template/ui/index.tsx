import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

// the page is fetched when it is first visited, so the exposed entry stays light
const NotesPage = lazy(() => import('./NotesPage').then((module) => ({ default: module.NotesPage })));

/** The UI remote of __TITLE__: its page, its texts and who may write (the server's table). */
export default definePluginUi({
  id: '__ID__',
  routes: [{ path: '/__ID__', element: <NotesPage /> }],
  i18n: { pt, en, es, tr },
  permissions: { '__ID__:write': ['admin'] },
});
