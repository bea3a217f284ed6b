/** Test support (imported by tests only): the SDK's UI test kit with the team area's translations. */

import { signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import type { SessionUser } from '@balcao/plugin-sdk/ui';
import { teamLocales } from '../index';

export { type ApiCall, type ApiHandler, renderPage, serveApi } from '@balcao/plugin-sdk/testing/ui';

/** Starts a session (an admin of company 1 unless `fields` say otherwise) with the team's texts. */
export const signIn = (fields: Partial<SessionUser> = {}) => signInAs({ namespace: 'admin', translations: teamLocales }, fields);
