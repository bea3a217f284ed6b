import { companyEvent } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createCompany,
  dayFromToday,
  familyOf,
  handshakeRefusal,
  nextEvent,
  recordEvents,
  TEST_PASSWORD,
} from '../../test/realtime/helpers';

let t: TestApp;
let url: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await t.close();
});

function cookieOf(res: { headers: Record<string, unknown> }): string {
  const header = res.headers['set-cookie'];
  return (Array.isArray(header) ? header.join('\n') : String(header ?? '')).split(';')[0] ?? '';
}

const refresh = (cookie?: string) =>
  t.inject({ method: 'POST', url: '/api/auth/refresh_token', headers: cookie ? { cookie } : {} });
const me = (token: string) => t.inject({ method: 'GET', url: '/api/auth/me', token });

/** A user of a company of its own, logged in: tests that revoke sessions never disturb each other. */
async function freshSession(): Promise<TestSession & { companyId: number; userId: number }> {
  const company = await createCompany(t);
  const session = await t.login(company.userEmail, TEST_PASSWORD);
  return { ...session, companyId: company.companyId, userId: company.userId };
}

/** Moves the last use of a refresh token back in time, as if `ms` had passed since its rotation. */
async function ageRotation(cookie: string, ms: number): Promise<void> {
  const id = cookie.replace(/^jrt=/, '').split('.')[0];
  const moved = await t.balcao.core
    .knex('refreshTokens')
    .where({ id })
    .whereNotNull('usedAt')
    .update({ usedAt: new Date(Date.now() - ms) });
  expect(moved).toBe(1);
}

describe('POST /auth/refresh_token', () => {
  it('refuses a missing, a garbage and an unknown cookie with 401 ERR_SESSION_EXPIRED and clears the cookie', async () => {
    const unknown = `jrt=00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`;
    // shaped like ours, but no uuid: it must never reach Postgres (whose refusal would answer 400)
    const notUuid = `jrt=${'-'.repeat(36)}.${'A'.repeat(43)}`;
    const notUuid2 = `jrt=${'a'.repeat(36)}.${'A'.repeat(43)}`;
    for (const cookie of [undefined, 'jrt=garbage', 'jrt=', unknown, notUuid, notUuid2]) {
      const res = await refresh(cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
      expect(String(res.headers['set-cookie'])).toMatch(/^jrt=; .*Expires=Thu, 01 Jan 1970/);
    }
  });

  it('refuses a cookie whose id is right but whose secret is not', async () => {
    const session = await freshSession();
    const [id] = session.cookie.replace(/^jrt=/, '').split('.');
    const res = await refresh(`jrt=${id}.${'B'.repeat(43)}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    // a wrong guess doesn't burn the real token
    expect((await refresh(session.cookie)).statusCode).toBe(200);
  });

  it('rotates: each refresh answers a new working token, the session user and a new cookie', async () => {
    const session = await freshSession();
    const first = await refresh(session.cookie);
    expect(first.statusCode).toBe(200);
    const cookie1 = cookieOf(first);
    expect(cookie1).toMatch(/^jrt=/);
    expect(cookie1).not.toBe(session.cookie);
    expect(first.json().user).toMatchObject({ id: session.userId, companyId: session.companyId });
    expect((await me(first.json().token)).statusCode).toBe(200);

    const second = await refresh(cookie1);
    expect(second.statusCode).toBe(200);
    const cookie2 = cookieOf(second);
    expect(new Set([session.cookie, cookie1, cookie2]).size).toBe(3);
    // the family is the session: every rotation stays in it
    expect(familyOf(t, second.json().token)).toBe(familyOf(t, session.token));
    // a session cookie stays a session cookie after rotation
    expect(String(second.headers['set-cookie'])).not.toMatch(/Max-Age/);
  });

  it('keeps a remembered session persistent across rotations', async () => {
    const company = await createCompany(t);
    const login = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: company.userEmail, password: TEST_PASSWORD, remember: true },
    });
    const rotated = await refresh(cookieOf(login));
    expect(rotated.statusCode).toBe(200);
    expect(String(rotated.headers['set-cookie'])).toContain(`Max-Age=${t.config.refreshTokenTtlDays * 86_400}`);
  });

  it('accepts a rotated cookie again within the 10 s grace (two tabs racing), in the same family', async () => {
    const session = await freshSession();
    const a = await refresh(session.cookie);
    const b = await refresh(session.cookie);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(familyOf(t, b.json().token)).toBe(familyOf(t, session.token));
    expect((await me(a.json().token)).statusCode).toBe(200);
    expect((await me(b.json().token)).statusCode).toBe(200);
  });

  it('treats a rotated cookie replayed after the grace as theft: the whole family ends at once', async () => {
    const session = await freshSession();
    const rotated = await refresh(session.cookie);
    const newest = await refresh(cookieOf(rotated));
    expect(newest.statusCode).toBe(200);
    const newestToken = newest.json().token as string;
    expect((await me(newestToken)).statusCode).toBe(200);

    await ageRotation(session.cookie, 11_000);
    const replay = await refresh(session.cookie);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });

    // the newest refresh cookie of the family is dead too …
    const afterTheft = await refresh(cookieOf(newest));
    expect(afterTheft.statusCode).toBe(401);
    expect(afterTheft.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    // … and so is every access token of the family, before it expires
    for (const token of [session.token, rotated.json().token, newestToken]) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    }
    const rows = await t.balcao.core.knex('refreshTokens').where({ familyId: familyOf(t, session.token) });
    expect(rows.length).toBe(3);
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('ends the family of a replayed rotated cookie even while its company is refused (expired)', async () => {
    const company = await createCompany(t);
    const victim = await t.login(company.userEmail, TEST_PASSWORD);
    const rotated = await refresh(victim.cookie);
    expect(rotated.statusCode).toBe(200);
    await ageRotation(victim.cookie, 11_000);
    const { knex, sessions } = t.balcao.core;
    await knex('companies')
      .where({ id: company.companyId })
      .update({ dueDate: dayFromToday(-1) });
    await sessions.invalidateCompany(company.companyId);
    expect((await refresh(victim.cookie)).statusCode).toBe(401);
    const rows = await knex('refreshTokens').where({ familyId: familyOf(t, victim.token) });
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
    // renewed, the company takes its users back, but not the stolen family
    await knex('companies')
      .where({ id: company.companyId })
      .update({ dueDate: dayFromToday(30) });
    await sessions.invalidateCompany(company.companyId);
    expect((await refresh(cookieOf(rotated))).statusCode).toBe(401);
  });

  it('keeps a user’s other sessions alive when one family is revoked for theft', async () => {
    const company = await createCompany(t);
    const victim = await t.login(company.userEmail, TEST_PASSWORD);
    const rotated = await refresh(victim.cookie);
    await ageRotation(victim.cookie, 11_000);
    expect((await refresh(victim.cookie)).statusCode).toBe(401);
    // another user of the same company is unaffected
    const other = await t.login(company.adminEmail, TEST_PASSWORD);
    expect((await me(other.token)).statusCode).toBe(200);
    expect((await me(rotated.json().token)).statusCode).toBe(401);
  });

  it('ends a session that was not remembered 12 hours after its login, however often it rotated', async () => {
    const session = await freshSession();
    const id = session.cookie.replace(/^jrt=/, '').split('.')[0];
    const login = await t.balcao.core.knex('refreshTokens').where({ id }).first('expiresAt');
    // at most 12 h (and no less than, say, 11 h 59 min) from the login
    const lifeMs = new Date(login.expiresAt).getTime() - Date.now();
    expect(lifeMs).toBeLessThanOrEqual(12 * 3_600_000);
    expect(lifeMs).toBeGreaterThan(12 * 3_600_000 - 60_000);
    // as if the session were 11 h 55 min old: rotating it must not give it another 12 h
    const nearEnd = new Date(Date.now() + 5 * 60_000);
    await t.balcao.core.knex('refreshTokens').where({ id }).update({ expiresAt: nearEnd });
    const rotated = await refresh(session.cookie);
    expect(rotated.statusCode).toBe(200);
    const newId = cookieOf(rotated).replace(/^jrt=/, '').split('.')[0];
    const next = await t.balcao.core.knex('refreshTokens').where({ id: newId }).first('expiresAt');
    expect(new Date(next.expiresAt).getTime()).toBe(nearEnd.getTime());
  });

  it('refuses a refresh token past its expiry', async () => {
    const session = await freshSession();
    const id = session.cookie.replace(/^jrt=/, '').split('.')[0];
    await t.balcao.core
      .knex('refreshTokens')
      .where({ id })
      .update({ expiresAt: new Date(Date.now() - 1_000) });
    const res = await refresh(session.cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  });

  it('refreshes into an expired company with its limited session, and refuses a deactivated one (403)', async () => {
    const company = await createCompany(t);
    const user = await t.login(company.userEmail, TEST_PASSWORD);
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    const { knex, sessions } = t.balcao.core;
    const yesterday = dayFromToday(-1);
    await knex('companies').where({ id: company.companyId }).update({ dueDate: yesterday });
    await sessions.invalidateCompany(company.companyId);
    const expired = await refresh(user.cookie);
    expect(expired.statusCode).toBe(200);
    expect((await me(expired.json().token)).statusCode).toBe(200);
    const queues = await t.inject({ method: 'GET', url: '/api/queue', token: expired.json().token });
    expect(queues.statusCode).toBe(402);
    expect(queues.json()).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: yesterday });

    await knex('companies')
      .where({ id: company.companyId })
      .update({ dueDate: dayFromToday(10), status: false });
    await sessions.invalidateCompany(company.companyId);
    const inactive = await refresh(admin.cookie);
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toEqual({ error: 'ERR_COMPANY_INACTIVE' });
  });

  it('unlocks the same expired session once the company is renewed, without a new login', async () => {
    const company = await createCompany(t, { dueDate: dayFromToday(-1) });
    const admin = await t.login(company.adminEmail, TEST_PASSWORD);
    const { knex, sessions } = t.balcao.core;
    const queues = () => t.inject({ method: 'GET', url: '/api/queue', token: admin.token });
    expect((await queues()).statusCode).toBe(402);
    await knex('companies')
      .where({ id: company.companyId })
      .update({ dueDate: dayFromToday(30) });
    await sessions.invalidateCompany(company.companyId);
    expect((await queues()).statusCode).toBe(200);
    const renewed = await refresh(admin.cookie);
    expect(renewed.statusCode).toBe(200);
  });
});

describe('DELETE /auth/logout', () => {
  it('ends the session: the access token and the refresh cookie are refused afterwards', async () => {
    const session = await freshSession();
    const res = await t.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      token: session.token,
      headers: { cookie: session.cookie },
    });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^jrt=; .*Expires=Thu, 01 Jan 1970/);
    expect((await me(session.token)).json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const again = await refresh(session.cookie);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const user = await t.balcao.core.knex('users').where({ id: session.userId }).first('online');
    expect(user.online).toBe(false);
  });

  it('ends the session from the cookie alone (an expired access token is no obstacle)', async () => {
    const session = await freshSession();
    const res = await t.inject({ method: 'DELETE', url: '/api/auth/logout', headers: { cookie: session.cookie } });
    expect(res.statusCode).toBe(204);
    expect((await refresh(session.cookie)).statusCode).toBe(401);
    expect((await me(session.token)).statusCode).toBe(401);
  });

  it('ends the session from the access token alone', async () => {
    const session = await freshSession();
    const res = await t.inject({ method: 'DELETE', url: '/api/auth/logout', token: session.token });
    expect(res.statusCode).toBe(204);
    expect((await refresh(session.cookie)).statusCode).toBe(401);
    expect((await me(session.token)).statusCode).toBe(401);
  });

  it('answers 204 to a cookie that is not ours, without asking Postgres about it', async () => {
    const res = await t.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      headers: { cookie: `jrt=${'-'.repeat(36)}.${'A'.repeat(43)}` },
    });
    expect(res.statusCode).toBe(204);
  });

  it('answers 204 without any session and ends nobody else’s', async () => {
    const bystander = await freshSession();
    const res = await t.inject({ method: 'DELETE', url: '/api/auth/logout' });
    expect(res.statusCode).toBe(204);
    expect((await me(bystander.token)).statusCode).toBe(200);
  });
});

describe('session takeover (one session per user)', () => {
  it('a second login ends the first session and tells its socket on company-{id}-auth', async () => {
    const company = await createCompany(t);
    const first = await t.login(company.userEmail, TEST_PASSWORD);
    const colleague = await t.login(company.adminEmail, TEST_PASSWORD);
    const firstSocket = await connectSocket(url, company.companyId, first.token);
    const colleagueSocket = await connectSocket(url, company.companyId, colleague.token);
    sockets.push(firstSocket, colleagueSocket);
    const colleagueEvents = recordEvents(colleagueSocket);
    const authEvent = companyEvent(company.companyId, 'auth');
    const told = nextEvent(firstSocket, authEvent);

    const second = await t.login(company.userEmail, TEST_PASSWORD);
    expect(await told).toEqual({ action: 'update', user: { id: company.userId } });

    expect((await me(first.token)).json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    expect((await refresh(first.cookie)).statusCode).toBe(401);
    expect((await me(second.token)).statusCode).toBe(200);
    expect((await me(colleague.token)).statusCode).toBe(200);
    // the old token can't open a socket any more; the new one can
    expect(await handshakeRefusal(url, company.companyId, first.token)).toBe('ERR_SESSION_EXPIRED');
    sockets.push(await connectSocket(url, company.companyId, second.token));

    // only the user's own sockets hear about it: a broadcast after it is the barrier
    const barrier = nextEvent(colleagueSocket, 'barrier');
    t.balcao.core.realtime.emit(company.companyId, 'barrier', 1);
    await barrier;
    expect(colleagueEvents.map((e) => e.event)).not.toContain(authEvent);
  });

  it('disconnects the ended session’s live socket after the takeover event, and only that one', async () => {
    const company = await createCompany(t);
    const first = await t.login(company.userEmail, TEST_PASSWORD);
    const colleague = await t.login(company.adminEmail, TEST_PASSWORD);
    const firstSocket = await connectSocket(url, company.companyId, first.token);
    const colleagueSocket = await connectSocket(url, company.companyId, colleague.token);
    sockets.push(firstSocket, colleagueSocket);
    const order: string[] = [];
    firstSocket.on(companyEvent(company.companyId, 'auth'), () => order.push('auth'));
    const ended = new Promise<string>((resolve) => firstSocket.once('disconnect', (reason) => resolve(reason)));
    firstSocket.on('disconnect', () => order.push('disconnect'));

    await t.login(company.userEmail, TEST_PASSWORD);
    expect(await ended).toBe('io server disconnect');
    expect(order).toEqual(['auth', 'disconnect']);
    expect(colleagueSocket.connected).toBe(true);
  });

  it('disconnects a logged-out session’s live socket', async () => {
    const session = await freshSession();
    const socket = await connectSocket(url, session.companyId, session.token);
    sockets.push(socket);
    const ended = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const res = await t.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      token: session.token,
      headers: { cookie: session.cookie },
    });
    expect(res.statusCode).toBe(204);
    expect(await ended).toBe('io server disconnect');
  });
});
