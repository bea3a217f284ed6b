/** Test support (imported by tests only): the SDK's UI test kit with the platform area's translations. */
import { renderPage as renderWithShell, signIn as signInAs } from '@balcao/plugin-sdk/testing/ui';
import type { SessionUser } from '@balcao/plugin-sdk/ui';
import type { ReactNode } from 'react';
import { platformLocales } from '../index';

export { type ApiCall, type ApiHandler, serveApi } from '@balcao/plugin-sdk/testing/ui';

/** Starts a session — the super user of the platform company unless `fields` say otherwise. */
export const signIn = (fields: Partial<SessionUser> = {}) =>
  signInAs({ namespace: 'admin', translations: platformLocales }, {
    name: 'Super',
    email: 'super@balcao.test',
    super: true,
    company: { id: 1, name: 'Plataforma', dueDate: '2999-12-31', companieSettings: [] },
    ...fields,
  } as Partial<SessionUser>);

/** Renders a page at `route`, with a home page at / to see redirects land. */
export const renderPage = (ui: ReactNode, route = '/page') => renderWithShell(ui, route, { home: <p>home page</p> });
