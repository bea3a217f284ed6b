import { i18n, store } from '@balcao/plugin-sdk/ui';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { ThemeProvider } from '../src/theme/ThemeProvider';

/** A recorded call to the stand-in API. */
export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | null;
}

type Handler = (call: ApiCall) => { status: number; body?: unknown } | undefined;

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Replaces the page's `fetch` with a stand-in of the server's HTTP API for component tests: each
 * handler answers the calls it knows (first match wins); public settings and the version have defaults.
 */
export function serveApi(...handlers: Handler[]): ApiCall[] {
  const calls: ApiCall[] = [];
  const defaults: Handler = ({ path }) => {
    if (path === '/public-settings/allowSignup') return { status: 200, body: 'disabled' };
    if (path.startsWith('/public-settings/')) return { status: 200, body: '' };
    if (path === '/version') return { status: 200, body: { version: '4.2.0' } };
    return undefined;
  };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    const call: ApiCall = {
      method: request.method,
      path: new URL(request.url).pathname.replace(/^\/api/, ''),
      body: text ? JSON.parse(text) : undefined,
      authorization: request.headers.get('authorization'),
    };
    calls.push(call);
    for (const handler of [...handlers, defaults]) {
      const answer = handler(call);
      if (answer) return json(answer.status, answer.body);
    }
    return json(404, { error: 'ERR_NOT_FOUND' });
  }) as typeof fetch;
  return calls;
}

/** Renders shell UI with the page's store, translations, theme and a router at `route`. */
export function renderShell(ui: ReactNode, { route = '/' }: { route?: string } = {}) {
  return render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider>
          <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
        </ThemeProvider>
      </I18nextProvider>
    </Provider>,
  );
}
