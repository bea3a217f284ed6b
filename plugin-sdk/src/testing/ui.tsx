/**
 * The UI test kit of features (`@balcao/plugin-sdk/testing/ui`, component tests in happy-dom; never in a
 * bundle): a stand-in of the server's HTTP API on `fetch`, a signed-in session in the shell's real store,
 * and a render with the store, translations, toasts and a router. Each feature's test support only adds
 * its i18n namespace and translations.
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import {
  api,
  type FeatureTranslations,
  i18n,
  registerTranslations,
  type SessionUser,
  sessionEnded,
  sessionStarted,
  setLanguage,
  store,
  ToastHost,
} from '../ui';

/** A call the stand-in API received. */
export interface ApiCall {
  method: string;
  /** Without the `/api` prefix: `/users/3`. */
  path: string;
  query: URLSearchParams;
  /** Parsed JSON, `FormData` for multipart, or undefined. */
  body: unknown;
  contentType: string | null;
}

/** Answers the calls it knows; undefined passes the call to the next handler (404 after the last). */
export type ApiHandler = (call: ApiCall) => { status: number; body?: unknown } | undefined;

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Replaces `fetch` with handlers answering the calls they know (first match wins, 404 for the rest); returns the calls. */
export function serveApi(...handlers: ApiHandler[]): ApiCall[] {
  const calls: ApiCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const contentType = request.headers.get('content-type');
    let body: unknown;
    if (contentType?.startsWith('multipart/form-data')) body = await request.formData();
    else {
      const text = await request.text();
      body = text ? JSON.parse(text) : undefined;
    }
    const call: ApiCall = {
      method: request.method,
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body,
      contentType,
    };
    calls.push(call);
    for (const handler of handlers) {
      const answer = handler(call);
      if (answer) return json(answer.status, answer.body);
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  }) as typeof fetch;
  return calls;
}

/** The session of `signIn`: an admin of company 1 (Acme) with every permission field enabled. */
export const TEST_SESSION_USER: SessionUser = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  companyId: 1,
  profile: 'admin',
  super: false,
  showDashboard: 'enabled',
  allowRealTime: 'enabled',
  allowConnections: 'enabled',
  allTicket: 'enable',
  allowGroup: true,
  allHistoric: 'enabled',
  allUserChat: 'enabled',
  userClosePendingTicket: 'enabled',
  defaultTheme: 'light',
  defaultMenu: 'open',
  defaultTicketsManagerWidth: 550,
  profileImage: null,
  online: true,
  company: { id: 1, name: 'Acme', dueDate: '2999-12-31', companieSettings: [] },
  queues: [],
} as unknown as SessionUser;

/**
 * Starts a session in the store (clearing the API cache of any earlier test) with `fields` over
 * `TEST_SESSION_USER`, registers the feature's translations and switches to Portuguese.
 */
export async function signIn(
  feature: { namespace: string; translations: FeatureTranslations },
  fields: Partial<SessionUser> = {},
): Promise<void> {
  store.dispatch(api.util.resetApiState());
  store.dispatch(sessionEnded('logout'));
  store.dispatch(sessionStarted({ ...TEST_SESSION_USER, ...fields } as SessionUser));
  await registerTranslations(feature.namespace, feature.translations);
  await setLanguage('pt');
}

/**
 * Renders a page with the store, translations, toasts and a router at `route`. With `home`, the page is
 * mounted as the route `route` beside a home page at `/` (to see a redirect land).
 */
export function renderPage(ui: ReactNode, route = '/', options: { home?: ReactNode } = {}) {
  const routed =
    options.home === undefined ? (
      ui
    ) : (
      <Routes>
        <Route path="/" element={options.home} />
        <Route path={route} element={ui} />
      </Routes>
    );
  return render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[route]}>{routed}</MemoryRouter>
        <ToastHost />
      </I18nextProvider>
    </Provider>,
  );
}

/** A media query answer that never changes (happy-dom has no media queries; antd's responsive hooks ask). */
export function fixedMediaQuery(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  } as unknown as MediaQueryList;
}

/**
 * A screen narrower than antd's smallest breakpoint: every media query matches, until the returned function
 * puts back the wide screen the tests start with.
 */
export function narrowScreen(): () => void {
  const wide = globalThis.matchMedia;
  globalThis.matchMedia = (query: string) => fixedMediaQuery(query, true);
  return () => {
    globalThis.matchMedia = wide;
  };
}
