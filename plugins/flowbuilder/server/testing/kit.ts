/**
 * The flow builder's server tests' app: the real core with every feature, the stand-ins' address allowed
 * (OUTBOUND_HTTP_ALLOW's part in tests), a recording driver for WhatsApp, and shortcuts to the API and to
 * inbound messages as a channel driver reports them. Not a test file.
 */
import type { InboundMessage, InboxService } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';

export interface FlowbuilderKit {
  t: TestApp;
  knex: Knex;
  inbox: InboxService;
  acme: number;
  adminToken: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(method: string, url: string, payload?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** A customer's text on Acme's test connection (a new number per `from`). */
  say(from: string, body: string): Promise<{ ticketId: number; messageId: number }>;
  /** The texts the product sent on a ticket, in order. */
  botTexts(ticketId: number): Promise<string[]>;
  close(): Promise<void>;
}

/** The connection the test customers write to (the inbox needs no row for it). */
export const CONNECTION_ID = 601;

let sequence = 0;

/** `role: 'web'`: this app runs no jobs (worker processes of the test do). */
export async function flowbuilderKit(
  env: Record<string, string> = {},
  options: { role?: 'web' | 'all' } = {},
): Promise<FlowbuilderKit> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  const t = await createTestApp({ config: { outboundHttpAllow: ['127.0.0.1'], role: options.role ?? 'all' } });
  const inbox = t.balcao.core.services.use('inbox') as InboxService;
  inbox.registerDriver('whatsapp', {
    async send(_target, message) {
      return { channelMessageId: `out-${message.messageId}` };
    },
  });
  const knex = t.balcao.core.knex;
  const acme = t.demo.companies.acme as number;
  const admin = await t.login('admin@acme.test');
  const api: FlowbuilderKit['api'] = async (method, url, payload, token) => {
    const response = await t.inject({
      method: method as 'GET',
      url: `/api${url}`,
      token: token ?? admin.token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.body === '' ? null : response.json() };
  };
  const numbers = new Map<string, string>();
  return {
    t,
    knex,
    inbox,
    acme,
    adminToken: admin.token,
    api,
    async say(from, body) {
      if (!numbers.has(from))
        numbers.set(from, `55319${String(Date.now() % 1e5).padStart(5, '0')}${String(numbers.size).padStart(3, '0')}`);
      const number = numbers.get(from) as string;
      sequence += 1;
      const message: InboundMessage = {
        companyId: acme,
        whatsappId: CONNECTION_ID,
        channel: 'whatsapp',
        contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Cliente ${from}` },
        message: { id: `fb-${Date.now().toString(36)}-${sequence}`, body },
      };
      const result = await inbox.receive(message);
      const row = await knex('messages')
        .where({ companyId: acme, ticketId: result.ticketId, fromMe: false })
        .orderBy('id', 'desc')
        .first('id');
      return { ticketId: result.ticketId, messageId: Number(row.id) };
    },
    async botTexts(ticketId) {
      return knex('messages').where({ companyId: acme, ticketId, fromMe: true }).orderBy('id').pluck('body');
    },
    async close() {
      await t.close();
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    },
  };
}

/** Polls `check` until it answers something truthy (or throws after `timeoutMs`). */
export async function until<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
