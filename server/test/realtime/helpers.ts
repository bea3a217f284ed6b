import { randomBytes } from 'node:crypto';
import { PLAN_FLAGS, type PlanFlags } from '@balcao/plugin-sdk/server';
import { companySocket, type TestApp } from '@balcao/plugin-sdk/testing';

export { companySocket, connectSocket, nextEvent, recordEvents } from '@balcao/plugin-sdk/testing';

import { DEFAULT_COMPANY_SETTINGS, hashPassword } from '@balcao/server';
import { createSigner } from 'fast-jwt';

/** Polls `probe` every `intervalMs` until it returns a truthy value (which it resolves to) or the deadline passes. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 20, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The error code a handshake is refused with (`connect_error` data.error, or its message). Fails if it connects. */
export function handshakeRefusal(url: string, companyId: number | string, token: string | undefined): Promise<string> {
  const socket = companySocket(url, companyId, token);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.close();
      reject(new Error('the handshake was accepted'));
    });
    socket.once('connect_error', (error: Error & { data?: { error?: string } }) => {
      socket.close();
      resolve(error.data?.error ?? `message:${error.message}`);
    });
  });
}

/** Whether the server has put the socket with this id into `room` of the company namespace. */
export async function inRoom(t: TestApp, companyId: number, socketId: string | undefined, room: string): Promise<boolean> {
  if (!socketId) return false;
  const sockets = await t.balcao.core.realtime.io.of(`/${companyId}`).in(room).fetchSockets();
  return sockets.some((socket) => socket.id === socketId);
}

/** An access token signed with the app's secret whose expiry is already past. */
export function expiredAccessToken(t: TestApp, claims: { userId: number; companyId: number; familyId: string }): string {
  const sign = createSigner({ key: t.config.jwtSecret, algorithm: 'HS256', expiresIn: 60_000 });
  return sign({
    sub: String(claims.userId),
    cid: claims.companyId,
    fam: claims.familyId,
    iat: Math.floor(Date.now() / 1000) - 3_600,
  });
}

/** The session family an access token belongs to (read with the app's own token service). */
export function familyOf(t: TestApp, token: string): string {
  const claims = t.balcao.core.tokens.readAccessToken(token);
  if (typeof claims !== 'object') throw new Error(`not a valid access token: ${claims}`);
  return claims.familyId;
}

/** The password of users made by `createCompany`. */
export const TEST_PASSWORD = 'secret123';

/** A YYYY-MM-DD calendar day `days` from today, in the server's time zone (like the core's `today()`). */
export function dayFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Creates a company of its own for a test (on its own plan, so flipping flags touches nobody else), with
 * the default settings and an admin and a user whose password is TEST_PASSWORD.
 */
export async function createCompany(
  t: TestApp,
  options: { name?: string; dueDate?: string; status?: boolean; flags?: Partial<PlanFlags>; isPublic?: boolean } = {},
): Promise<{ companyId: number; planId: number; adminId: number; adminEmail: string; userId: number; userEmail: string }> {
  const { knex } = t.balcao.core;
  const tag = randomBytes(4).toString('hex');
  const name = options.name ?? `Company ${tag}`;
  const [plan] = await knex('plans')
    .insert({
      name: `Plan ${tag}`,
      users: 10,
      connections: 10,
      queues: 10,
      amount: 10,
      isPublic: options.isPublic ?? false,
      ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, options.flags?.[flag] ?? true])),
      pluginFlags: JSON.stringify(
        Object.fromEntries(t.balcao.core.plans.pluginFlags().map(({ key }) => [key, options.flags?.[key] ?? true])),
      ),
    })
    .returning('id');
  const [company] = await knex('companies')
    .insert({
      name,
      email: `owner-${tag}@test.test`,
      planId: plan.id,
      status: options.status ?? true,
      dueDate: options.dueDate ?? dayFromToday(30),
    })
    .returning('id');
  await knex('settings').insert(
    Object.entries(DEFAULT_COMPANY_SETTINGS).map(([key, value]) => ({ companyId: company.id, key, value })),
  );
  const passwordHash = await hashPassword(TEST_PASSWORD, t.config.passwordHashCost);
  const [admin, user] = await knex('users')
    .insert([
      { companyId: company.id, name: `Admin ${tag}`, email: `admin-${tag}@test.test`, passwordHash, profile: 'admin' },
      { companyId: company.id, name: `User ${tag}`, email: `user-${tag}@test.test`, passwordHash, profile: 'user' },
    ])
    .returning(['id', 'email']);
  return {
    companyId: company.id,
    planId: plan.id,
    adminId: admin.id,
    adminEmail: admin.email,
    userId: user.id,
    userEmail: user.email,
  };
}
