/** Test support (imported by tests only): the SDK's UI test kit with the inbox's directory translations. */

import { signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import type { SessionUser } from '@balcao/plugin-sdk/ui';
import { directoryLocales } from '../../index';

export { type ApiCall, type ApiHandler, renderPage, serveApi } from '@balcao/plugin-sdk/testing/ui';

/** Starts a session (an admin of company 1 unless `fields` say otherwise) with the directory's texts. */
export const signIn = (fields: Partial<SessionUser> = {}) =>
  signInAs({ namespace: 'inbox', translations: directoryLocales }, fields);
