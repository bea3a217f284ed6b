/**
 * Helpers of the billing's server tests: a test app (the stand-in Efí gateway the plugin starts outside
 * production), the billing's context and state, sessions of the demo's users and shortcuts to the API.
 * Not a test file.
 */
import { createTestApp, type TestApp, type TestAppOptions, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import type { BillingContext } from '../config';
import { type BillingState, billingState } from '../services/state';

export interface BillingKit {
  t: TestApp;
  knex: Knex;
  ctx: BillingContext;
  state: BillingState;
  acmeId: number;
  liteId: number;
  admin: TestSession;
  agent: TestSession;
  lite: TestSession;
  superUser: TestSession;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(session: TestSession | null, method: string, url: string, payload?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function billingKit(options: TestAppOptions = {}): Promise<BillingKit> {
  const t = await createTestApp(options);
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'billing');
  if (!plugin) throw new Error('the billing plugin is not loaded');
  // the loader's list holds every feature's context untyped; this one is the billing's
  const ctx = plugin.ctx as BillingContext;
  const [admin, agent, lite, superUser] = await Promise.all([
    t.login('admin@acme.test'),
    t.login('agent@acme.test'),
    t.login('admin@lite.test'),
    t.login('super@balcao.test'),
  ]);
  const api: BillingKit['api'] = async (session, method, url, payload) => {
    const res = await t.inject({
      method: method as 'GET',
      url: `/api${url}`,
      ...(session ? { token: session.token } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    let body: unknown = null;
    try {
      body = res.json();
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body };
  };
  return {
    t,
    knex: t.balcao.core.knex,
    ctx,
    state: billingState(ctx),
    acmeId: t.demo.companies.acme as number,
    liteId: t.demo.companies.lite as number,
    admin,
    agent,
    lite,
    superUser,
    api,
    close: () => t.close(),
  };
}

/** A calendar day `days` from today (the server's zone). */
export function dayFromToday(days: number): string {
  const at = new Date();
  at.setDate(at.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
