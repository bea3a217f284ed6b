/**
 * The loopback test kit: a test app with the loopback channel (a test plugin whose driver sends over HTTP
 * to a provider stand-in in the test process, kept once per idempotency key), a loopback connection of
 * Acme, worker processes to `kill -9`, and the checks an exactly-once test makes. For features that send
 * through the inbox in bulk (campaigns, schedules) and their benches. Nothing is mocked: the sends cross
 * the inbox's real delivery step and a real socket.
 *
 * @example
 * const app = await loopbackApp();
 * const worker = startWorker(app.t);
 * await worker.ready;
 * killWhenTaken(app.provider, worker, 100);
 * @packageDocumentation
 */
import type { Knex } from 'knex';
import { createTestApp, type TestApp, type TestAppOptions } from '../index';
import { LOOPBACK_CHANNEL, LOOPBACK_URL_VARIABLE } from './names';
import { LOOPBACK_PLUGIN } from './plugin';
import { type LoopbackProvider, startLoopbackProvider } from './provider';
import type { WorkerProcess } from './worker-process';

export { LOOPBACK_CHANNEL, LOOPBACK_URL_VARIABLE } from './names';
export { LOOPBACK_PLUGIN } from './plugin';
export { type LoopbackMessage, type LoopbackProvider, startLoopbackProvider } from './provider';
export { startWorker, type WorkerProcess } from './worker-process';

/** A test app with the loopback channel, its provider stand-in and a loopback connection of Acme. */
export interface LoopbackApp {
  t: TestApp;
  knex: Knex;
  provider: LoopbackProvider;
  companyId: number;
  adminToken: string;
  userToken: string;
  /** Acme's loopback connection. */
  whatsappId: number;
  /** Calls the API as Acme's admin (or `token`); answers the status and the JSON (else the text) body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(method: string, url: string, payload?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** Closes the app, then the provider stand-in. */
  close(): Promise<void>;
}

/**
 * Starts a provider stand-in, points the loopback channel at it (`LOOPBACK_PROVIDER_URL` of this process,
 * which `startWorker`'s processes inherit) and builds a test app with the channel loaded.
 */
export async function loopbackApp(options: TestAppOptions = {}): Promise<LoopbackApp> {
  const provider = await startLoopbackProvider();
  process.env[LOOPBACK_URL_VARIABLE] = provider.url;
  let t: TestApp;
  try {
    t = await createTestApp({ ...options, plugins: [LOOPBACK_PLUGIN, ...(options.plugins ?? [])] });
  } catch (error) {
    await provider.close();
    throw error;
  }
  const knex = t.balcao.core.knex;
  const companyId = t.demo.companies.acme as number;
  const [connection] = await knex('whatsapps')
    .insert({
      companyId,
      name: 'Loopback',
      channel: LOOPBACK_CHANNEL,
      status: 'CONNECTED',
      isDefault: false,
      token: `lb${Date.now()}`.slice(0, 30),
    })
    .returning('id');
  const admin = await t.login('admin@acme.test');
  const user = await t.login('agent@acme.test');
  const api = async (method: string, url: string, payload?: unknown, token = admin.token) => {
    const res = await t.inject({
      method: method as 'GET',
      url: `/api${url}`,
      token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: res.statusCode,
      body: res.body ? (String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body) : null,
    };
  };
  return {
    t,
    knex,
    provider,
    companyId,
    adminToken: admin.token,
    userToken: user.token,
    whatsappId: connection.id as number,
    api,
    async close() {
      await t.close();
      await provider.close();
    },
  };
}

/** The context a loaded feature was registered with (the loader keeps every feature's untyped). */
export function featureContext<Context>(t: TestApp, id: string): Context {
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === id);
  if (!plugin) throw new Error(`the feature ${id} is not loaded`);
  return plugin.ctx as Context;
}

/** A clock a test sets and moves (for dispatchers that read the time from a `Clock`). */
export interface FakeClock {
  now(): Date;
  set(at: Date): void;
  advance(ms: number): void;
}

/** A clock that stands at `start` until the test moves it. */
export function fakeClock(start: Date): FakeClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (at) => {
      now = at.getTime();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/** `count` distinct numbers (Brazilian mobiles, country code first). */
export function numbers(count: number, prefix = '55119'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(8, '0')}`);
}

let boundaries = 0;
/** A multipart body of one file under `field` (for `inject`: spread into its options). */
export function multipartFile(
  file: { name: string; type: string; data: Buffer },
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  boundaries += 1;
  const boundary = `----loopback${Date.now()}${boundaries}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Kills `worker` with SIGKILL the moment the provider takes its `count`th message, while the worker's
 * request is still unanswered: the send is accepted and never recorded, the crash exactly-once must survive.
 * Answers whether the kill has happened.
 */
export function killWhenTaken(provider: LoopbackProvider, worker: WorkerProcess, count: number): () => boolean {
  let killed = false;
  const push = provider.messages.push.bind(provider.messages);
  provider.messages.push = (...items) => {
    const length = push(...items);
    if (!killed && length >= count) {
      killed = true;
      worker.child.kill('SIGKILL');
    }
    return length;
  };
  return () => killed;
}

/** How many messages the inbox holds for each of these numbers' contacts of a company (numbers without any left out). */
export async function messagesPerNumber(
  knex: Knex,
  companyId: number,
  numbers: string[],
): Promise<Array<{ number: string; messages: number }>> {
  const counts = (await knex.raw(
    `SELECT c.number, count(m.id)::int AS messages FROM contacts c
     JOIN messages m ON m.company_id = c.company_id AND m.contact_id = c.id
     WHERE c.company_id = ? AND c.number = ANY(?::text[]) GROUP BY c.number`,
    [companyId, numbers],
  )) as { rows: Array<{ number: string; messages: number }> };
  return counts.rows;
}
