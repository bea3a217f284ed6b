import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '../shared/session';
import { createAuthBaseQuery } from './base-query';
import {
  initialSessionState,
  sessionEnded,
  sessionSlice,
  sessionStarted,
  sessionUserChanged,
  subscriptionExpired,
} from './session-slice';
import { createTokenStore } from './token-storage';

/** A Storage in memory (the base query reads the token through it). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

const user = {
  id: 7,
  name: 'Ana',
  companyId: 3,
  company: { id: 3, name: 'Acme', dueDate: '2999-12-31', companieSettings: [] },
} as unknown as SessionUser;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A stand-in for the API's auth behaviour: a token is valid while it is `current`; an older one answers
 * 403 ERR_TOKEN_EXPIRED; `/auth/refresh_token` issues the next token while the refresh cookie is good.
 */
function authServer() {
  const server = {
    current: 'token-1',
    issued: 1,
    refreshCookieValid: true,
    /** The company's due date when its subscription has expired (the refresh then answers 402). */
    expiredOn: null as string | null,
    refreshCalls: 0,
    calls: [] as Array<{ path: string; authorization: string | null; credentials: RequestCredentials }>,
    /** Answers for a path, given whether the token was valid. */
    routes: new Map<string, (validToken: boolean) => Response>(),
    fetch: async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request ? input : new Request(input, init);
      const path = new URL(request.url).pathname.replace(/^\/api/, '');
      server.calls.push({ path, authorization: request.headers.get('authorization'), credentials: request.credentials });
      if (path === '/auth/refresh_token') {
        server.refreshCalls++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (!server.refreshCookieValid) return json(401, { error: 'ERR_SESSION_EXPIRED' });
        if (server.expiredOn) return json(402, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: server.expiredOn });
        server.current = `token-${++server.issued}`;
        return json(200, { token: server.current, user });
      }
      if (path === '/auth/login') return json(401, { error: 'ERR_INVALID_CREDENTIALS' });
      const route = server.routes.get(path);
      const token = request.headers.get('authorization')?.replace('Bearer ', '');
      if (!token) return json(401, { error: 'ERR_UNAUTHENTICATED' });
      if (token !== server.current) return json(403, { error: 'ERR_TOKEN_EXPIRED' });
      return route ? route(true) : json(404, { error: 'ERR_NOT_FOUND' });
    },
  };
  return server;
}

function setup() {
  const storage = memoryStorage();
  const tokens = createTokenStore(() => storage);
  const server = authServer();
  const { baseQuery } = createAuthBaseQuery({ baseUrl: 'http://balcao.test/api', tokens, fetchFn: server.fetch });
  const api = createApi({
    baseQuery,
    endpoints: (build) => ({
      notes: build.query<{ notes: string[] }, string>({ query: (tag) => `/notes?tag=${tag}` }),
      forbidden: build.query<unknown, void>({ query: () => '/forbidden' }),
      gone: build.query<unknown, void>({ query: () => '/gone' }),
      unpaid: build.query<unknown, void>({ query: () => '/unpaid' }),
      login: build.mutation<unknown, void>({ query: () => ({ url: '/auth/login', method: 'POST', body: {} }) }),
    }),
  });
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
    preloadedState: { session: initialSessionState(true) },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  store.dispatch(sessionStarted(user));
  server.routes.set('/notes', () => json(200, { notes: ['first'] }));
  server.routes.set('/forbidden', () => json(403, { error: 'ERR_NO_PERMISSION' }));
  server.routes.set('/gone', () => json(401, { error: 'ERR_SESSION_EXPIRED' }));
  server.routes.set('/unpaid', () => json(402, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-09' }));
  return { storage, tokens, server, api, store };
}

describe('the base query (docs/product/tickets-and-inbox.md#states-and-transitions and #calls-and-realtime-events)', () => {
  let kit: ReturnType<typeof setup>;
  beforeEach(() => {
    kit = setup();
  });

  it('sends the stored token as bearer, with credentials', async () => {
    kit.tokens.write('token-1');
    const result = await kit.store.dispatch(kit.api.endpoints.notes.initiate('a'));
    expect(result.data).toEqual({ notes: ['first'] });
    expect(kit.server.calls[0]).toMatchObject({ path: '/notes', authorization: 'Bearer token-1', credentials: 'include' });
  });

  it('refreshes on a 403 and retries once when the token expired', async () => {
    kit.tokens.write('token-0');
    const result = await kit.store.dispatch(kit.api.endpoints.notes.initiate('a'));
    expect(result.data).toEqual({ notes: ['first'] });
    expect(kit.server.refreshCalls).toBe(1);
    expect(kit.tokens.read()).toBe('token-2');
    expect(kit.server.calls.map((call) => call.path)).toEqual(['/notes', '/auth/refresh_token', '/notes']);
    expect(kit.server.calls[2]?.authorization).toBe('Bearer token-2');
    expect(kit.store.getState().session.status).toBe('authenticated');
  });

  it('runs one refresh for calls that expire together', async () => {
    kit.tokens.write('token-0');
    const results = await Promise.all(['a', 'b', 'c'].map((tag) => kit.store.dispatch(kit.api.endpoints.notes.initiate(tag))));
    expect(results.every((result) => result.data !== undefined)).toBe(true);
    expect(kit.server.refreshCalls).toBe(1);
  });

  it('refreshes on any 403 but retries only an expired token', async () => {
    kit.tokens.write('token-1');
    const result = await kit.store.dispatch(kit.api.endpoints.forbidden.initiate());
    expect(result.error).toMatchObject({ status: 403, data: { error: 'ERR_NO_PERMISSION' } });
    expect(kit.server.refreshCalls).toBe(1);
    expect(kit.server.calls.filter((call) => call.path === '/forbidden')).toHaveLength(1);
    expect(kit.store.getState().session.status).toBe('authenticated');
  });

  it('ends the session when the refresh fails', async () => {
    kit.tokens.write('token-0');
    kit.server.refreshCookieValid = false;
    const result = await kit.store.dispatch(kit.api.endpoints.notes.initiate('a'));
    expect(result.error).toMatchObject({ status: 403 });
    expect(kit.tokens.read()).toBeNull();
    expect(kit.store.getState().session).toMatchObject({ status: 'anonymous', user: null, endedBy: 'expired' });
  });

  it('ends the session on a 401, without refreshing', async () => {
    kit.tokens.write('token-1');
    const result = await kit.store.dispatch(kit.api.endpoints.gone.initiate());
    expect(result.error).toMatchObject({ status: 401 });
    expect(kit.server.refreshCalls).toBe(0);
    expect(kit.tokens.read()).toBeNull();
    expect(kit.store.getState().session.status).toBe('anonymous');
  });

  it('keeps the session for an expired subscription, with its due date (the router shows /financeiro-aberto)', async () => {
    kit.tokens.write('token-1');
    const result = await kit.store.dispatch(kit.api.endpoints.unpaid.initiate());
    expect(result.error).toMatchObject({ status: 402 });
    expect(kit.server.refreshCalls).toBe(0);
    expect(kit.tokens.read()).toBe('token-1');
    expect(kit.store.getState().session).toMatchObject({
      status: 'authenticated',
      endedBy: null,
      subscriptionDueDate: '2024-03-09',
    });
  });

  it('says so too when the refresh of an expired token is refused for the subscription', async () => {
    kit.tokens.write('token-0');
    kit.server.expiredOn = '2024-03-09';
    const result = await kit.store.dispatch(kit.api.endpoints.notes.initiate('a'));
    expect(result.error).toMatchObject({ status: 403 });
    expect(kit.tokens.read()).toBeNull();
    expect(kit.store.getState().session).toMatchObject({
      status: 'anonymous',
      endedBy: 'subscription',
      subscriptionDueDate: '2024-03-09',
    });
  });

  it('ends a session not yet known with that reason, and keeps it when the socket reports the end afterwards', async () => {
    kit.store.dispatch(sessionEnded('expired'));
    kit.store.dispatch(subscriptionExpired('2024-03-09'));
    expect(kit.store.getState().session).toMatchObject({
      status: 'anonymous',
      endedBy: 'subscription',
      subscriptionDueDate: '2024-03-09',
    });
    kit.store.dispatch(sessionEnded('expired'));
    expect(kit.store.getState().session).toMatchObject({ endedBy: 'subscription', subscriptionDueDate: '2024-03-09' });
  });

  it('unlocks the session when the company is paid (its due date moves), and locks a past due date at start', () => {
    kit.store.dispatch(subscriptionExpired('2024-03-09'));
    const state = () => kit.store.getState().session;
    const id = state().user?.id as number;
    const company = (state().user as SessionUser).company;
    kit.store.dispatch(sessionUserChanged({ id, changes: { company: { ...company, dueDate: '2999-01-01' }, expired: false } }));
    expect(state()).toMatchObject({ status: 'authenticated', subscriptionDueDate: null });
    // the server's verdict at start (login, refresh, /auth/me) locks it
    kit.store.dispatch(
      sessionStarted({ ...(state().user as SessionUser), expired: true, company: { ...company, dueDate: '2024-03-09' } }),
    );
    expect(state().subscriptionDueDate).toBe('2024-03-09');
  });

  it('leaves the session calls alone: a refused login neither refreshes nor ends anything', async () => {
    kit.tokens.write('token-1');
    const result = await kit.store.dispatch(kit.api.endpoints.login.initiate());
    expect(result.error).toMatchObject({ status: 401, data: { error: 'ERR_INVALID_CREDENTIALS' } });
    expect(kit.server.refreshCalls).toBe(0);
    expect(kit.tokens.read()).toBe('token-1');
    expect(kit.store.getState().session.status).toBe('authenticated');
  });
});
