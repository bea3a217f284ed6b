/** Test support (imported by tests only): the SDK's UI test kit with the internal chat's translations. */
import { signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import type { SessionUser } from '@balcao/plugin-sdk/ui';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import tr from '../locales/tr.json';

export { type ApiCall, type ApiHandler, narrowScreen, renderPage, serveApi } from '@balcao/plugin-sdk/testing/ui';

/** Starts a session (user 1, an admin of company 1, unless `fields` say otherwise) with the chat's texts. */
export const signIn = (fields: Partial<SessionUser> = {}) =>
  signInAs({ namespace: 'internal-chat', translations: { pt, en, es, tr } }, fields);
