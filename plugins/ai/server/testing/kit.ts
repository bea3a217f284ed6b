/**
 * The AI plugin's server tests' app: the real core with every feature, loopback allowed (the stand-in
 * provider's address), a recording driver for WhatsApp, and shortcuts to the API, to inbound messages as a
 * channel driver reports them, and to prompts. Not a test file.
 */
import type { InboundMessage, InboxService } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { type OpenAiStandIn, startOpenAiStandIn } from '@balcao/plugin-sdk/testing/openai';
import type { Knex } from 'knex';

export interface AiKit {
  t: TestApp;
  knex: Knex;
  inbox: InboxService;
  standIn: OpenAiStandIn;
  acme: number;
  adminToken: string;
  /** Sent through the WhatsApp driver, in order: what reached the channel. */
  delivered: Array<{ body: string; at: number }>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(method: string, url: string, payload?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** A customer's text on Acme's test connection (a new number per `from`). */
  say(from: string, body: string): Promise<{ ticketId: number; messageId: number }>;
  /** A new queue of Acme (the assistant's tests each take their own). */
  queue(name: string): Promise<number>;
  /**
   * Resolves once the plugin's job queue holds nothing waiting, running or delayed: every assistant turn
   * enqueued so far (a message's turn is enqueued before `say` returns) has run to its end.
   */
  answersDrained(): Promise<void>;
  close(): Promise<void>;
}

export const CONNECTION_ID = 611;
let sequence = 0;

export async function aiKit(env: Record<string, string> = {}): Promise<AiKit> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  const standIn = await startOpenAiStandIn();
  // the speech service's address: the stand-in's Azure-shaped endpoint (the region is not part of it)
  saved.AI_SPEECH_URL ??= process.env.AI_SPEECH_URL;
  process.env.AI_SPEECH_URL = standIn.url.replace(/\/v1$/, '/cognitiveservices/v1');
  const t = await createTestApp({ config: { outboundHttpAllow: ['127.0.0.1'] } });
  const inbox = t.balcao.core.services.use('inbox') as InboxService;
  const delivered: AiKit['delivered'] = [];
  inbox.registerDriver('whatsapp', {
    async send(_target, message) {
      delivered.push({ body: message.body, at: Date.now() });
      return { channelMessageId: `out-${message.messageId}` };
    },
  });
  const knex = t.balcao.core.knex;
  const acme = t.demo.companies.acme as number;
  const admin = await t.login('admin@acme.test');
  const api: AiKit['api'] = async (method, url, payload, token) => {
    const response = await t.inject({
      method: method as 'GET',
      url: `/api${url}`,
      token: token ?? admin.token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.body === '' ? null : response.json() };
  };
  const numbers = new Map<string, string>();
  let colors = 0;
  return {
    t,
    knex,
    inbox,
    standIn,
    acme,
    adminToken: admin.token,
    delivered,
    api,
    async say(from, body) {
      if (!numbers.has(from))
        numbers.set(from, `55318${String(Date.now() % 1e5).padStart(5, '0')}${String(numbers.size).padStart(3, '0')}`);
      const number = numbers.get(from) as string;
      sequence += 1;
      const message: InboundMessage = {
        companyId: acme,
        whatsappId: CONNECTION_ID,
        channel: 'whatsapp',
        contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Cliente ${from}` },
        message: { id: `ai-${Date.now().toString(36)}-${sequence}`, body },
      };
      const result = await inbox.receive(message);
      const row = await knex('messages')
        .where({ companyId: acme, ticketId: result.ticketId, fromMe: false })
        .orderBy('id', 'desc')
        .first('id');
      return { ticketId: result.ticketId, messageId: Number(row.id) };
    },
    async queue(name) {
      colors += 1;
      const [row] = await knex('queues')
        .insert({ companyId: acme, name, color: `#a1${String(colors).padStart(4, '0')}` })
        .returning('id');
      return Number(row.id);
    },
    async answersDrained() {
      await until(async () => {
        const depth = (await t.balcao.core.jobs.depths()).find((queue) => queue.queue === 'ai');
        return depth !== undefined && depth.waiting + depth.active + depth.delayed === 0;
      });
    },
    async close() {
      await t.close();
      await standIn.close();
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
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
