import { companyEvent, currentTenant, type RequestSession, ROOMS } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createCompany,
  dayFromToday,
  expiredAccessToken,
  familyOf,
  handshakeRefusal,
  inRoom,
  nextEvent,
  recordEvents,
  TEST_PASSWORD,
  waitFor,
} from '../../test/realtime/helpers';

/** socket.io, one namespace per company (docs/product/tickets-and-inbox.md#realtime-events, docs/architecture.md#realtime), on a real server and Redis. */
let t: TestApp;
let url: string;
let acmeId: number;
let liteId: number;
let acmeAdmin: TestSession;
let acmeAgent: TestSession;
let liteAdmin: TestSession;
const open: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
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
  await t.close();
});

async function connect(companyId: number, token: string): Promise<Socket> {
  const socket = await connectSocket(url, companyId, token);
  open.push(socket);
  return socket;
}

/** Emits a broadcast to the company and waits for every socket to get it: what was due before has arrived. */
let barrierCount = 0;
async function barrier(companyId: number, ...sockets: Socket[]): Promise<void> {
  const n = ++barrierCount;
  const arrivals = sockets.map((socket) => nextEvent(socket, 'barrier', (value) => value === n));
  t.balcao.core.realtime.emit(companyId, 'barrier', n);
  await Promise.all(arrivals);
}

/** The events a socket got, leaving out barriers and the presence events every connection causes. */
const eventsOf = (log: Array<{ event: string }>) =>
  log.map((entry) => entry.event).filter((event) => event !== 'barrier' && !/^company-\d+-user$/.test(event));

describe('handshake', () => {
  it('refuses a connection without a token', async () => {
    expect(await handshakeRefusal(url, acmeId, undefined)).toBe('ERR_UNAUTHENTICATED');
  });

  it('refuses a garbage token as ERR_TOKEN_INVALID and an expired one as ERR_TOKEN_EXPIRED (the client refreshes)', async () => {
    expect(await handshakeRefusal(url, acmeId, 'garbage')).toBe('ERR_TOKEN_INVALID');
    const expired = expiredAccessToken(t, {
      userId: t.demo.users.acmeAdmin,
      companyId: acmeId,
      familyId: familyOf(t, acmeAdmin.token),
    });
    expect(await handshakeRefusal(url, acmeId, expired)).toBe('ERR_TOKEN_EXPIRED');
  });

  it("refuses a valid token of another company's namespace with ERR_NO_PERMISSION", async () => {
    expect(await handshakeRefusal(url, acmeId, liteAdmin.token)).toBe('ERR_NO_PERMISSION');
    expect(await handshakeRefusal(url, liteId, acmeAdmin.token)).toBe('ERR_NO_PERMISSION');
  });

  it('creates no namespace for a company that does not exist (a knock on /<any number> costs nothing)', async () => {
    const namespaces = () => [...t.balcao.core.realtime.io._nsps.keys()];
    const before = namespaces();
    expect(await handshakeRefusal(url, 999_999, acmeAdmin.token)).toBe('message:Invalid namespace');
    expect(await handshakeRefusal(url, 999_998, undefined)).toBe('message:Invalid namespace');
    expect(await handshakeRefusal(url, '9999999999', acmeAdmin.token)).toBe('message:Invalid namespace');
    expect(namespaces()).toEqual(before);
    // an existing company's namespace still answers with the guard's reasons
    const company = await createCompany(t);
    expect(namespaces()).not.toContain(`/${company.companyId}`);
    expect(await handshakeRefusal(url, company.companyId, undefined)).toBe('ERR_UNAUTHENTICATED');
    expect(await handshakeRefusal(url, company.companyId, acmeAdmin.token)).toBe('ERR_NO_PERMISSION');
  });

  it('refuses a session that ended, and a company past its due date', async () => {
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    await t.inject({ method: 'DELETE', url: '/api/auth/logout', token: user.token });
    expect(await handshakeRefusal(url, company.companyId, user.token)).toBe('ERR_SESSION_EXPIRED');

    await t.balcao.core
      .knex('companies')
      .where({ id: company.companyId })
      .update({ dueDate: dayFromToday(-1) });
    await t.balcao.core.sessions.invalidateCompany(company.companyId);
    expect(await handshakeRefusal(url, company.companyId, admin.token)).toBe('ERR_SUBSCRIPTION_EXPIRED');
  });

  it('re-checks live sockets when their user or company changes: new profile taken, deactivation and expiry end them', async () => {
    const { knex, sessions, realtime } = t.balcao.core;
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    const serverSide = async (socket: Socket) =>
      (await realtime.io.of(`/${company.companyId}`).fetchSockets()).find((s) => s.id === socket.id);

    const userSocket = await connect(company.companyId, user.token);
    expect((await serverSide(userSocket))?.data.session.profile).toBe('user');
    await knex('users').where({ email: company.userEmail }).update({ profile: 'admin' });
    await sessions.invalidateUser(user.user.id);
    await waitFor(async () => (await serverSide(userSocket))?.data.session.profile === 'admin', { what: 'new profile' });
    expect(userSocket.connected).toBe(true);

    const adminSocket = await connect(company.companyId, admin.token);
    const ended = nextEvent(adminSocket, 'disconnect');
    await knex('companies')
      .where({ id: company.companyId })
      .update({ dueDate: dayFromToday(-1) });
    await sessions.invalidateCompany(company.companyId);
    expect(await ended).toBe('io server disconnect');
    await waitFor(() => !userSocket.connected, { what: 'every socket of the company ended' });
    // a socket of another company is left alone
    const acme = await connect(acmeId, acmeAdmin.token);
    await sessions.invalidateCompany(company.companyId);
    await barrier(acmeId, acme);
    expect(acme.connected).toBe(true);
  });

  it('accepts the right company and puts the socket in its user room', async () => {
    const socket = await connect(acmeId, acmeAdmin.token);
    expect(socket.connected).toBe(true);
    await waitFor(() => inRoom(t, acmeId, socket.id, ROOMS.user(t.demo.users.acmeAdmin)), { what: 'user room' });
    const server = (await t.balcao.core.realtime.io.of(`/${acmeId}`).fetchSockets()).find((s) => s.id === socket.id);
    expect(server?.data.session).toMatchObject({ userId: t.demo.users.acmeAdmin, companyId: acmeId, profile: 'admin' });
  });

  it('takes the token from the query string too', async () => {
    const socket = io(`${url}/${acmeId}`, {
      query: { token: acmeAgent.token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    open.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
  });

  it('serves nothing on the main namespace and refuses a namespace that is not a company id', async () => {
    const main = io(url, { auth: { token: acmeAdmin.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    open.push(main);
    const reason = await new Promise<string>((resolve) => main.once('disconnect', resolve));
    expect(reason).toBe('io server disconnect');
    expect(await handshakeRefusal(url, 'admin', acmeAdmin.token)).toBe('message:Invalid namespace');
  });
});

describe('rooms', () => {
  it('joinTickets and joinNotification join their rooms; emits to a room reach only the sockets in it', async () => {
    const tickets = await connect(acmeId, acmeAdmin.token);
    const notifications = await connect(acmeId, acmeAgent.token);
    const neither = await connect(acmeId, acmeAgent.token);
    const otherCompany = await connect(liteId, liteAdmin.token);
    const logs = [tickets, notifications, neither, otherCompany].map(recordEvents);

    tickets.emit('joinTickets', 'open');
    notifications.emit('joinNotification');
    await waitFor(() => inRoom(t, acmeId, tickets.id, ROOMS.tickets('open')), { what: 'tickets:open' });
    await waitFor(() => inRoom(t, acmeId, notifications.id, ROOMS.notification), { what: 'notification' });

    const ticketEvent = companyEvent(acmeId, 'ticket');
    const noticeEvent = companyEvent(acmeId, 'appMessage');
    t.balcao.core.realtime.emit(acmeId, ticketEvent, { action: 'update', ticket: { id: 1 } }, { rooms: ROOMS.tickets('open') });
    t.balcao.core.realtime.emit(acmeId, noticeEvent, { action: 'create' }, { rooms: [ROOMS.notification] });
    // the same events to Lite's rooms never reach Acme
    t.balcao.core.realtime.emit(liteId, 'lite-only', {}, { rooms: ROOMS.tickets('open') });
    await barrier(acmeId, tickets, notifications, neither);
    await barrier(liteId, otherCompany);

    expect(eventsOf(logs[0] ?? [])).toEqual([ticketEvent]);
    expect(logs[0]?.find((entry) => entry.event === ticketEvent)?.payload).toEqual({ action: 'update', ticket: { id: 1 } });
    expect(eventsOf(logs[1] ?? [])).toEqual([noticeEvent]);
    expect(eventsOf(logs[2] ?? [])).toEqual([]);
    expect(eventsOf(logs[3] ?? [])).toEqual([]);
  });

  it('emits to a user room reach every socket of that user and nobody else', async () => {
    const adminA = await connect(acmeId, acmeAdmin.token);
    const adminB = await connect(acmeId, acmeAdmin.token);
    const agent = await connect(acmeId, acmeAgent.token);
    const logs = [adminA, adminB, agent].map(recordEvents);
    t.balcao.core.realtime.emit(acmeId, 'personal', { n: 1 }, { rooms: ROOMS.user(t.demo.users.acmeAdmin) });
    await barrier(acmeId, adminA, adminB, agent);
    expect(eventsOf(logs[0] ?? [])).toContain('personal');
    expect(eventsOf(logs[1] ?? [])).toContain('personal');
    expect(eventsOf(logs[2] ?? [])).not.toContain('personal');
  });

  it('an empty room list reaches nobody', async () => {
    const socket = await connect(acmeId, acmeAgent.token);
    const log = recordEvents(socket);
    t.balcao.core.realtime.emit(acmeId, 'nobody', {}, { rooms: [] });
    await barrier(acmeId, socket);
    expect(eventsOf(log)).toEqual([]);
  });

  it('refuses unknown ticket statuses and leaves rooms on leaveTickets / leaveNotification', async () => {
    const socket = await connect(acmeId, acmeAgent.token);
    socket.emit('joinTickets', 'bogus');
    socket.emit('joinTickets', { status: 'open' });
    socket.emit('joinTickets', 'pending');
    socket.emit('joinNotification');
    await waitFor(() => inRoom(t, acmeId, socket.id, ROOMS.notification), { what: 'notification' });
    expect(await inRoom(t, acmeId, socket.id, ROOMS.tickets('pending'))).toBe(true);
    expect(await inRoom(t, acmeId, socket.id, ROOMS.tickets('bogus'))).toBe(false);
    expect(await inRoom(t, acmeId, socket.id, ROOMS.tickets('[object Object]'))).toBe(false);

    socket.emit('leaveTickets', 'pending');
    socket.emit('leaveNotification');
    await waitFor(async () => !(await inRoom(t, acmeId, socket.id, ROOMS.notification)), { what: 'left notification' });
    expect(await inRoom(t, acmeId, socket.id, ROOMS.tickets('pending'))).toBe(false);
  });

  it('joinChatBox is refused while no feature checks ticket rooms, and follows the check once registered', async () => {
    const socket = await connect(acmeId, acmeAgent.token);
    socket.emit('joinChatBox', 7);
    socket.emit('joinNotification');
    await waitFor(() => inRoom(t, acmeId, socket.id, ROOMS.notification), { what: 'notification' });
    expect(await inRoom(t, acmeId, socket.id, ROOMS.chatBox(7))).toBe(false);

    const calls: Array<{ session: RequestSession; id: string; scope: number | undefined }> = [];
    t.balcao.core.realtime.authorizeRoom('chatBox', async (session, id) => {
      calls.push({ session, id, scope: currentTenant()?.companyId });
      return id === '7';
    });
    socket.emit('joinChatBox', 8);
    socket.emit('joinChatBox', '7');
    socket.emit('joinChatBox', '7; drop table');
    await waitFor(() => inRoom(t, acmeId, socket.id, ROOMS.chatBox(7)), { what: 'chatBox:7' });
    await waitFor(() => calls.length >= 2, { what: 'room checks' });
    expect(await inRoom(t, acmeId, socket.id, ROOMS.chatBox(8))).toBe(false);
    // the check ran for the socket's user, inside its company's tenant scope; a malformed id never reached it
    expect(calls.map((call) => call.id)).toEqual(['8', '7']);
    for (const call of calls) {
      expect(call.session).toMatchObject({ userId: t.demo.users.acmeAgent, companyId: acmeId });
      expect(call.scope).toBe(acmeId);
    }

    const log = recordEvents(socket);
    t.balcao.core.realtime.emit(acmeId, companyEvent(acmeId, 'appMessage'), { action: 'create' }, { rooms: ROOMS.chatBox(7) });
    await barrier(acmeId, socket);
    expect(eventsOf(log)).toEqual([companyEvent(acmeId, 'appMessage')]);

    socket.emit('joinChatBoxLeave', 7);
    await waitFor(async () => !(await inRoom(t, acmeId, socket.id, ROOMS.chatBox(7))), { what: 'left chatBox:7' });
  });
});

describe('user status', () => {
  it('userStatus marks the user online and emits company-{id}-user; the last disconnect marks offline', async () => {
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const watcher = await connect(company.companyId, (await t.login(company.adminEmail, TEST_PASSWORD)).token);
    const userEvent = companyEvent(company.companyId, 'user');
    const isUser = (online: boolean) => (payload: { user: { id: number; online: boolean } }) =>
      payload.user.id === company.userId && payload.user.online === online;
    const online = () => t.balcao.core.knex('users').where({ id: company.userId }).first('online');

    // connecting marks online
    const connected = nextEvent(watcher, userEvent, isUser(true));
    const socket = await connect(company.companyId, user.token);
    expect(await connected).toEqual({ action: 'update', user: { id: company.userId, online: true } });
    expect((await online()).online).toBe(true);

    // the periodic userStatus ping marks online again (say after something marked the user away)
    await t.balcao.core.knex('users').where({ id: company.userId }).update({ online: false });
    const pinged = nextEvent(watcher, userEvent, isUser(true));
    socket.emit('userStatus');
    await pinged;
    expect((await online()).online).toBe(true);

    const gone = nextEvent(watcher, userEvent, isUser(false));
    socket.disconnect();
    await gone;
    expect((await online()).online).toBe(false);
  });

  it('keeps the user online while another of their sockets is connected', async () => {
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const watcher = await connect(company.companyId, (await t.login(company.adminEmail, TEST_PASSWORD)).token);
    const userEvent = companyEvent(company.companyId, 'user');
    const first = await connect(company.companyId, user.token);
    const second = await connect(company.companyId, user.token);
    const log = recordEvents(watcher);
    first.disconnect();
    await waitFor(async () => (await t.balcao.core.realtime.io.of(`/${company.companyId}`).fetchSockets()).length === 2, {
      what: 'first socket gone',
    });
    // the second socket's departure is what ends the presence: the first offline event comes after it
    const gone = nextEvent<{ user: { id: number; online: boolean } }>(watcher, userEvent, (p) => p.user.online === false);
    second.disconnect();
    await gone;
    await barrier(company.companyId, watcher);
    const offline = log.filter((entry) => {
      const payload = entry.payload as { user?: { id: number; online: boolean } };
      return entry.event === userEvent && payload.user?.id === company.userId && payload.user.online === false;
    });
    expect(offline.length).toBe(1);
  });
});

describe('shutdown', () => {
  it('drops an emit that comes after the realtime server closed (a feature finishing its work), without an unhandled rejection', async () => {
    const app = await createTestApp({ seed: false });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      await app.close();
      // what a channel session ending during shutdown does: emit once Redis is gone
      app.balcao.core.realtime.emit(1, companyEvent(1, 'whatsappSession'), { action: 'update' });
      app.balcao.core.realtime.emitAll('company-announcement', { action: 'create' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
