import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const PromptsPage = lazy(() => import('./pages/PromptsPage'));
const TranscribeAudio = lazy(() => import('./slots/TranscribeAudio'));

/** The AI plugin's UI: the prompts page and the ticket view's audio transcription (docs/ai.md). */
export default definePluginUi({
  id: 'ai',
  routes: [{ path: '/prompts', element: <PromptsPage /> }],
  i18n: { pt, en, es, tr },
  slots: { messageActions: [{ key: 'transcribe', Component: TranscribeAudio }] },
});
