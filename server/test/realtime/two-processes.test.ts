import { companyEvent, ROOMS } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { type BalcaoApp, buildApp } from '@balcao/server';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSocket, createCompany, nextEvent, recordEvents, TEST_PASSWORD, waitFor } from './helpers';

/**
 * Two app processes on the same database and Redis prefix (as two `web` replicas behind a balancer): the
 * Redis adapter carries emits between them, and session and plan invalidations reach both.
 */
let t: TestApp;
let second: BalcaoApp;
let url1: string;
let url2: string;
let acmeId: number;
let liteId: number;
let acmeAdmin: TestSession;
let acmeAgent: TestSession;
let liteAdmin: TestSession;
const open: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp();
  // a second process sharing the first's configuration: same database, same Redis prefix
  second = await buildApp(t.config);
  url1 = await t.listen();
  url2 = await second.app.listen({ host: '127.0.0.1', port: 0 });
  acmeId = t.demo.companies.acme;
  liteId = t.demo.companies.lite;
  acmeAdmin = await t.login('admin@acme.test');
  acmeAgent = await t.login('agent@acme.test');
  liteAdmin = await t.login('admin@lite.test');
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

async function connect(url: string, companyId: number, token: string): Promise<Socket> {
  const socket = await connectSocket(url, companyId, token);
  open.push(socket);
  return socket;
}

/** Waits until app 1 knows every listed socket (through the adapter) in `room`: joins on app 2 have landed. */
async function roomHas(companyId: number, room: string, ids: Array<string | undefined>): Promise<void> {
  await waitFor(
    async () => {
      const sockets = await t.balcao.core.realtime.io.of(`/${companyId}`).in(room).fetchSockets();
      return ids.every((id) => sockets.some((socket) => socket.id === id));
    },
    { what: `${room} on both processes` },
  );
}

describe('emits across processes', () => {
  it('an emit on process 1 reaches a socket connected to process 2, rooms included', async () => {
    const onSecond = await connect(url2, acmeId, acmeAdmin.token);
    const notJoined = await connect(url2, acmeId, acmeAgent.token);
    const notJoinedLog = recordEvents(notJoined);
    onSecond.emit('joinTickets', 'open');
    await roomHas(acmeId, ROOMS.tickets('open'), [onSecond.id]);

    const event = companyEvent(acmeId, 'ticket');
    const broadcast = nextEvent(onSecond, 'company-broadcast');
    const inRoom = nextEvent(onSecond, event);
    t.balcao.core.realtime.emit(acmeId, 'company-broadcast', { from: 1 });
    t.balcao.core.realtime.emit(acmeId, event, { action: 'update', ticket: { id: 5 } }, { rooms: ROOMS.tickets('open') });
    expect(await broadcast).toEqual({ from: 1 });
    expect(await inRoom).toEqual({ action: 'update', ticket: { id: 5 } });

    // the room emit didn't reach the socket outside the room (a later broadcast is the barrier)
    const barrier = nextEvent(notJoined, 'barrier');
    t.balcao.core.realtime.emit(acmeId, 'barrier', 1);
    await barrier;
    expect(notJoinedLog.map((entry) => entry.event)).not.toContain(event);
  });

  it('and the other way round, only within the company', async () => {
    const onFirst = await connect(url1, acmeId, acmeAgent.token);
    const liteOnFirst = await connect(url1, liteId, liteAdmin.token);
    const liteLog = recordEvents(liteOnFirst);
    const arrived = nextEvent(onFirst, 'from-second');
    second.core.realtime.emit(acmeId, 'from-second', { n: 2 });
    expect(await arrived).toEqual({ n: 2 });
    const barrier = nextEvent(liteOnFirst, 'barrier');
    second.core.realtime.emit(liteId, 'barrier', 2);
    await barrier;
    expect(liteLog.map((entry) => entry.event)).not.toContain('from-second');
  });

  it('emitAll reaches every company on both processes', async () => {
    const acmeOnFirst = await connect(url1, acmeId, acmeAdmin.token);
    const liteOnSecond = await connect(url2, liteId, liteAdmin.token);
    const acmeOnSecond = await connect(url2, acmeId, acmeAgent.token);
    for (const [origin, n] of [
      [t.balcao, 1],
      [second, 2],
    ] as const) {
      const arrivals = [acmeOnFirst, liteOnSecond, acmeOnSecond].map((socket) =>
        nextEvent(socket, 'company-announcement', (payload: { n: number }) => payload.n === n),
      );
      origin.core.realtime.emitAll('company-announcement', { action: 'create', n });
      await Promise.all(arrivals);
    }
  });

  it('a takeover on one process tells the first session’s socket on the other', async () => {
    const company = await createCompany(t);
    const first = await t.login(company.userEmail, TEST_PASSWORD);
    const socket = await connect(url2, company.companyId, first.token);
    const told = nextEvent(socket, companyEvent(company.companyId, 'auth'));
    await t.login(company.userEmail, TEST_PASSWORD);
    expect(await told).toEqual({ action: 'update', user: { id: company.userId } });
  });

  it('presence: a user with a socket on each process stays online until the last one leaves', async () => {
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const watcher = await connect(url1, company.companyId, (await t.login(company.adminEmail, TEST_PASSWORD)).token);
    const userEvent = companyEvent(company.companyId, 'user');
    const onFirst = await connect(url1, company.companyId, user.token);
    const onSecond = await connect(url2, company.companyId, user.token);
    await roomHas(company.companyId, ROOMS.user(company.userId), [onFirst.id, onSecond.id]);
    const log = recordEvents(watcher);

    onSecond.disconnect();
    await waitFor(
      async () => (await second.core.realtime.io.of(`/${company.companyId}`).fetchSockets()).every((s) => s.id !== onSecond.id),
      { what: 'socket gone from process 2' },
    );
    const gone = nextEvent<{ user: { id: number; online: boolean } }>(
      watcher,
      userEvent,
      (payload) => payload.user.id === company.userId && !payload.user.online,
    );
    onFirst.disconnect();
    await gone;
    const barrier = nextEvent(watcher, 'barrier');
    t.balcao.core.realtime.emit(company.companyId, 'barrier', 1);
    await barrier;
    const offline = log.filter((entry) => {
      const payload = entry.payload as { user?: { id: number; online: boolean } };
      return entry.event === userEvent && payload.user?.id === company.userId && payload.user.online === false;
    });
    expect(offline.length).toBe(1);
  });

  it('presence: two users whose last sockets on a process leave together both go offline promptly', async () => {
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    // the user also has a socket on process 1, so process 2 must ask it before calling anyone offline
    await connect(url1, company.companyId, user.token);
    const userOnSecond = await connect(url2, company.companyId, user.token);
    const adminOnSecond = await connect(url2, company.companyId, admin.token);
    const { knex } = t.balcao.core;
    await waitFor(async () => (await knex('users').where({ id: company.adminId }).first('online')).online, {
      what: 'admin online',
    });

    // the admin's presence check is under way when the user's departure empties the namespace here
    adminOnSecond.disconnect();
    userOnSecond.disconnect();
    // well within the adapter's 5 s request timeout: a lost answer would leave the admin online
    await waitFor(async () => !(await knex('users').where({ id: company.adminId }).first('online')).online, {
      timeoutMs: 3_000,
      what: 'admin offline',
    });
    // the user still has a socket on process 1
    expect((await knex('users').where({ id: company.userId }).first('online')).online).toBe(true);
  });
});

describe('invalidations across processes', () => {
  it('a logout on process 1 makes process 2 refuse the access token at once', async () => {
    const company = await createCompany(t);
    const session = await t.login(company.userEmail, TEST_PASSWORD);
    const meOnSecond = () =>
      second.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${session.token}` } });
    expect((await meOnSecond()).statusCode).toBe(200);
    await t.inject({ method: 'DELETE', url: '/api/auth/logout', token: session.token });
    // pub/sub is asynchronous: "at once" is the next few milliseconds, never the token's lifetime
    const refused = await waitFor(async () => {
      const res = await meOnSecond();
      return res.statusCode === 401 ? res : null;
    });
    expect(refused.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('a process started after a revocation refuses the revoked family too', async () => {
    const company = await createCompany(t);
    const session = await t.login(company.userEmail, TEST_PASSWORD);
    await t.inject({ method: 'DELETE', url: '/api/auth/logout', token: session.token });
    const third = await buildApp(t.config);
    try {
      const res = await third.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    } finally {
      await third.close();
    }
  });

  it('a plan change invalidated on process 1 reaches process 2', async () => {
    const company = await createCompany(t, { flags: { useKanban: false } });
    expect(await second.core.plans.has(company.companyId, 'useKanban')).toBe(false);
    await t.balcao.core.knex('plans').where({ id: company.planId }).update({ useKanban: true });
    await t.balcao.core.sessions.invalidatePlan(company.planId);
    await waitFor(() => second.core.plans.has(company.companyId, 'useKanban'), { what: 'flag seen by process 2' });
  });

  it('a settings change on process 1 is read by process 2', async () => {
    await t.balcao.core.settings.set(1, 'appName', 'Cross Process');
    await waitFor(async () => {
      const res = await second.app.inject({ method: 'GET', url: '/api/public-settings/appName' });
      return res.json() === 'Cross Process';
    });
  });
});
