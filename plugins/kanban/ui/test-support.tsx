/**
 * Test support (imported by tests only): a stand-in of the server's HTTP API on `fetch`, a signed-in
 * session in the page's real store, and a render with the store, translations and a router.
 */
import {
  api,
  i18n,
  registerTranslations,
  type SessionUser,
  sessionEnded,
  sessionStarted,
  setLanguage,
  store,
  ToastHost,
} from '@balcao/plugin-sdk/ui';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type ApiHandler = (call: ApiCall) => { status: number; body?: unknown } | undefined;

/** Replaces `fetch` with handlers answering the calls they know (404 for the rest); returns the calls. */
export function serveApi(...handlers: ApiHandler[]): ApiCall[] {
  const calls: ApiCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: ApiCall = {
      method: request.method,
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
    };
    calls.push(call);
    for (const handler of handlers) {
      const answer = handler(call);
      if (answer) {
        return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'content-type': 'application/json' },
        });
      }
    }
    return new Response(JSON.stringify({ error: 'ERR_NOT_FOUND' }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return calls;
}

/** Starts a session in the store (and clears the API cache of any earlier test). */
export async function signIn(fields: Partial<SessionUser> = {}): Promise<void> {
  store.dispatch(api.util.resetApiState());
  store.dispatch(sessionEnded('logout'));
  store.dispatch(
    sessionStarted({
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
      ...fields,
    } as SessionUser),
  );
  await registerTranslations('kanban', { pt, en, es, tr });
  await setLanguage('pt');
}

/** Renders a page with the store, translations, toasts and a router at `route`. */
export function renderPage(ui: ReactNode, route = '/') {
  return render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
        <ToastHost />
      </I18nextProvider>
    </Provider>,
  );
}

/** A drag's data, as the browser carries it between dragstart and drop. */
export function dataTransfer() {
  const data = new Map<string, string>();
  return {
    dropEffect: 'none',
    effectAllowed: 'all',
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
  };
}
