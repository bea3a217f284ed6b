/** Test support (imported by tests only): the SDK's UI test kit with the AI plugin's translations. */
import { signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import type { SessionUser } from '@balcao/plugin-sdk/ui';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import tr from '../locales/tr.json';

export { type ApiCall, type ApiHandler, renderPage, serveApi } from '@balcao/plugin-sdk/testing/ui';

/** Starts a session (an admin of company 1 unless `fields` say otherwise) with the AI plugin's texts. */
export const signIn = (fields: Partial<SessionUser> = {}) =>
  signInAs({ namespace: 'ai', translations: { pt, en, es, tr } }, fields);
