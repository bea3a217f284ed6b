import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const MessagesApiPage = lazy(() => import('./pages/MessagesApiPage').then((m) => ({ default: m.MessagesApiPage })));

/** The message API's UI remote (loaded by the shell only for companies whose plan has useExternalApi). */
export default definePluginUi({
  id: 'message-api',
  routes: [{ path: '/messages-api', element: <MessagesApiPage /> }],
  i18n: { pt, en, es, tr },
});
