import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureStore } from '@reduxjs/toolkit';
import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query/react';
import { type Namespace, Server } from 'socket.io';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../shared/session';
import { api as pageApi } from './api';
import {
  connectCompanySocket,
  disconnectCompanySocket,
  joinSocketRoom,
  SOCKET_RECONNECT_DELAY_MS,
  streamSocketEvent,
  subscribeSocketEvent,
  subscribeSocketResync,
} from './realtime';
import { initialSessionState, sessionSlice, sessionStarted } from './session-slice';
import { store as pageStore } from './store';

/** A real socket.io server with the core's handshake rule: a good token, else the reason as error data. */
let http: HttpServer;
let io: Server;
let origin: string;
let companyNamespace: Namespace;
const handshakes: Array<{ token: unknown; userId: unknown }> = [];
const joined: string[] = [];

beforeAll(async () => {
  http = createServer();
  io = new Server(http, { cors: { origin: true } });
  companyNamespace = io.of('/3');
  companyNamespace.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    handshakes.push({ token, userId: socket.handshake.query.userId });
    if (token === 'good') return next();
    const codes: Record<string, string> = { expired: 'ERR_TOKEN_EXPIRED', lapsed: 'ERR_SUBSCRIPTION_EXPIRED' };
    const code = codes[String(token)] ?? 'ERR_SESSION_EXPIRED';
    next(Object.assign(new Error(code), { data: { error: code } }));
  });
  companyNamespace.on('connection', (socket) => {
    socket.on('joinTickets', (status: string) => {
      joined.push(status);
      void socket.join(`tickets:${status}`);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(() => {
  disconnectCompanySocket();
  handshakes.length = 0;
  joined.length = 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => io.close(() => resolve()));
});

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

function connect(
  token: { value: string },
  renewals: { count: number } = { count: 0 },
  refused: string[] = [],
  refreshAnswers = true,
) {
  return connectCompanySocket({
    companyId: 3,
    userId: 7,
    origin,
    readToken: () => token.value,
    renewToken: async () => {
      renewals.count++;
      if (refreshAnswers) token.value = 'good';
      return refreshAnswers;
    },
    onSessionRefused: (code) => refused.push(code),
  });
}

describe('the company socket (docs/product/tickets-and-inbox.md#realtime-events)', () => {
  it("joins the company's namespace with the token and the user id, and hands out its events", async () => {
    const received: unknown[] = [];
    const stop = subscribeSocketEvent('company-3-ticket', (payload) => received.push(payload));
    const socket = await connect({ value: 'good' });
    await until(() => socket.connected);
    expect(handshakes).toEqual([{ token: 'good', userId: '7' }]);
    companyNamespace.emit('company-3-ticket', { action: 'update', ticket: { id: 1 } });
    await until(() => received.length === 1);
    expect(received).toEqual([{ action: 'update', ticket: { id: 1 } }]);
    stop();
  });

  it('renews an expired token and connects with the new one', async () => {
    const renewals = { count: 0 };
    const socket = await connect({ value: 'expired' }, renewals);
    await until(() => socket.connected);
    expect(renewals.count).toBe(1);
    expect(handshakes.map((handshake) => handshake.token)).toEqual(['expired', 'good']);
  });

  it('reports a refused session instead of retrying', async () => {
    const refused: string[] = [];
    await connect({ value: 'revoked' }, { count: 0 }, refused);
    await until(() => refused.length === 1);
    expect(refused).toEqual(['ERR_SESSION_EXPIRED']);
  });

  it('asks the refresh about a company that expired, and reports the refusal when the refresh refuses too', async () => {
    const renewals = { count: 0 };
    const refused: string[] = [];
    await connect({ value: 'lapsed' }, renewals, refused, false);
    await until(() => refused.length === 1);
    expect(renewals.count).toBe(1);
    expect(refused).toEqual(['ERR_SUBSCRIPTION_EXPIRED']);
  });

  it('reconnects after a drop and joins its rooms again', async () => {
    const socket = await connect({ value: 'good' });
    await until(() => socket.connected);
    joinSocketRoom('joinTickets', 'leaveTickets', 'open');
    await until(() => joined.length === 1);
    const dropped = Date.now();
    for (const server of companyNamespace.sockets.values()) server.conn.close();
    await until(() => joined.length === 2, 5_000);
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(SOCKET_RECONNECT_DELAY_MS - 50);
    expect(joined).toEqual(['open', 'open']);
  });
});

describe('after a drop, what was missed is read again', () => {
  it('tells the resync listeners when the socket is back, never on its first connection', async () => {
    let resyncs = 0;
    const stop = subscribeSocketResync(() => resyncs++);
    const socket = await connect({ value: 'good' });
    await until(() => socket.connected);
    expect(resyncs).toBe(0);
    for (const server of companyNamespace.sockets.values()) server.conn.close();
    await until(() => resyncs === 1);
    stop();
    for (const server of companyNamespace.sockets.values()) server.conn.close();
    await until(() => !socket.connected);
    await until(() => socket.connected);
    expect(resyncs).toBe(1);
  });

  it("refetches the page store's queries on screen when the socket comes back", async () => {
    let reads = 0;
    const withProbe = pageApi.injectEndpoints({
      endpoints: (build) => ({
        resyncProbe: build.query<number, void>({ queryFn: () => ({ data: ++reads }) }),
      }),
    });
    const subscription = pageStore.dispatch(withProbe.endpoints.resyncProbe.initiate());
    await subscription;
    const socket = await connect({ value: 'good' });
    await until(() => socket.connected);
    expect(reads).toBe(1);
    for (const server of companyNamespace.sockets.values()) server.conn.close();
    await until(() => reads === 2);
    expect(withProbe.endpoints.resyncProbe.select()(pageStore.getState()).data).toBe(2);
    subscription.unsubscribe();
  });
});

describe('socket events patch the RTK Query cache', () => {
  it('applies company events to a cache entry while it lives', async () => {
    interface Note {
      id: number;
      text: string;
    }
    const api = createApi({
      baseQuery: fakeBaseQuery(),
      endpoints: (build) => ({
        notes: build.query<Note[], void>({
          queryFn: () => ({ data: [{ id: 1, text: 'first' }] }),
          onCacheEntryAdded: (_arg, lifecycle) =>
            streamSocketEvent<Note[], { action: string; note: Note }>(
              lifecycle,
              { channel: 'hello' },
              (draft, { action, note }) => {
                if (action === 'create') draft.push(note);
              },
            ),
        }),
      }),
    });
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, session: sessionSlice.reducer },
      preloadedState: { session: initialSessionState(false) },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    store.dispatch(sessionStarted({ id: 7, companyId: 3 } as SessionUser));
    const socket = await connect({ value: 'good' });
    await until(() => socket.connected);
    const subscription = store.dispatch(api.endpoints.notes.initiate());
    await subscription;
    companyNamespace.emit('company-3-hello', { action: 'create', note: { id: 2, text: 'second' } });
    companyNamespace.emit('company-4-hello', { action: 'create', note: { id: 9, text: 'other company' } });
    await until(() => api.endpoints.notes.select()(store.getState()).data?.length === 2);
    expect(api.endpoints.notes.select()(store.getState()).data).toEqual([
      { id: 1, text: 'first' },
      { id: 2, text: 'second' },
    ]);
    subscription.unsubscribe();
  });
});
