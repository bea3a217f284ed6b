/**
 * Helpers of the webhooks' server tests (not a test file): a test app allowed to reach the loopback
 * receiver stand-in (OUTBOUND_HTTP_ALLOW's part in tests), the plugin's context and dispatcher (stopped:
 * the tests drive it, with their own clock), and a shortcut to the API.
 */
import { createTestApp, type TestApp, type TestAppOptions } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import type { WebhooksContext } from '../config';
import type { Clock } from '../services/clock';
import { type WebhookDispatcher, webhookDispatcher } from '../services/dispatcher';
import { type Receiver, startReceiver } from './receiver';

export interface WebhooksKit {
  t: TestApp;
  knex: Knex;
  ctx: WebhooksContext;
  dispatcher: WebhookDispatcher;
  receiver: Receiver;
  companyId: number;
  adminToken: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(method: string, url: string, payload?: unknown, token?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** A settable clock for the dispatcher. */
export function fakeClock(start: Date): Clock & { advance(ms: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}

/** `config`: more of the test app's configuration (the SMTP stand-in's `smtpUrl`). */
export async function webhooksKit(config: TestAppOptions['config'] = {}): Promise<WebhooksKit> {
  const receiver = await startReceiver();
  const t = await createTestApp({ config: { outboundHttpAllow: ['127.0.0.1'], ...config } });
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'webhooks');
  if (!plugin) throw new Error('the webhooks plugin is not loaded');
  // the loader's list holds every feature's context untyped; this one is the webhooks'
  const ctx = plugin.ctx as WebhooksContext;
  const dispatcher = webhookDispatcher(ctx);
  await dispatcher.stop();
  const admin = await t.login('admin@acme.test');
  const api = async (method: string, url: string, payload?: unknown, token = admin.token) => {
    const res = await t.inject({
      method: method as 'GET',
      url: `/api${url}`,
      token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  return {
    t,
    knex: t.balcao.core.knex,
    ctx,
    dispatcher,
    receiver,
    companyId: t.demo.companies.acme as number,
    adminToken: admin.token,
    api,
    async close() {
      await t.close();
      await receiver.close();
    },
  };
}
