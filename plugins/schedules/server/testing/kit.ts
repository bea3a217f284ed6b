/**
 * Helpers of the schedules' server tests: a test app with the loopback channel (testing/loopback-channel)
 * and its provider stand-in, a loopback connection of Acme, contacts, and shortcuts to the API. Not a test file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp, type TestAppOptions } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import type { SchedulesContext } from '../config';
import { type Clock, type ScheduleDispatcher, scheduleDispatcher } from '../services/dispatcher';
import { type LoopbackProvider, startLoopbackProvider } from './provider';

export const LOOPBACK_PLUGIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loopback-channel');

export interface SchedulesKit {
  t: TestApp;
  knex: Knex;
  provider: LoopbackProvider;
  ctx: SchedulesContext;
  dispatcher: ScheduleDispatcher;
  companyId: number;
  adminToken: string;
  userToken: string;
  /** Acme's loopback connection. */
  whatsappId: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(method: string, url: string, payload?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** Contacts of Acme with these numbers (names `Pessoa N`), straight in the database; answers their ids. */
  contacts(numbers: string[]): Promise<number[]>;
  close(): Promise<void>;
}

/** A settable clock for the dispatcher. */
export function fakeClock(start: Date): Clock & { set(at: Date): void; advance(ms: number): void } {
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

export async function schedulesKit(options: TestAppOptions & { dispatcher?: boolean } = {}): Promise<SchedulesKit> {
  const provider = await startLoopbackProvider();
  process.env.SCHEDULE_LOOPBACK_URL = provider.url;
  const t = await createTestApp({ ...options, plugins: [LOOPBACK_PLUGIN, ...(options.plugins ?? [])] });
  const knex = t.balcao.core.knex;
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'schedules');
  if (!plugin) throw new Error('the schedules plugin is not loaded');
  // the loader's list holds every feature's context untyped; this one is the schedules'
  const ctx = plugin.ctx as SchedulesContext;
  const dispatcher = scheduleDispatcher(ctx);
  if (options.dispatcher === false) await dispatcher.stop();
  const companyId = t.demo.companies.acme as number;
  const [connection] = await knex('whatsapps')
    .insert({
      companyId,
      name: 'Loopback',
      channel: 'loopback',
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
  let made = 0;
  return {
    t,
    knex,
    provider,
    ctx,
    dispatcher,
    companyId,
    adminToken: admin.token,
    userToken: user.token,
    whatsappId: connection.id,
    api,
    async contacts(numbers) {
      const ids: number[] = [];
      for (let i = 0; i < numbers.length; i += 5_000) {
        const rows = await knex('contacts')
          .insert(
            numbers.slice(i, i + 5_000).map((number) => {
              made += 1;
              return { companyId, name: `Pessoa ${made}`, number, channel: 'whatsapp', whatsappId: connection.id };
            }),
          )
          .returning('id');
        ids.push(...rows.map((row: { id: number }) => row.id));
      }
      return ids;
    },
    async close() {
      await dispatcher.stop();
      await t.close();
      await provider.close();
    },
  };
}

/** `count` distinct numbers (Brazilian mobiles, country code first). */
export function numbers(count: number, prefix = '55119'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(8, '0')}`);
}

let boundaries = 0;
/** A multipart body of one file under `field` (for `inject`: spread into its options). */
export function multipartFile(file: { name: string; type: string; data: Buffer }, field = 'file') {
  boundaries += 1;
  const boundary = `----schedules${Date.now()}${boundaries}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
