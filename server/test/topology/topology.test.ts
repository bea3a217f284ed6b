/**
 * Balcão as a cluster: two `web` and two `worker` processes of the production bundle, each on a loopback
 * address of its own (127.0.0.2 … 127.0.0.5, as four hosts), on one PostgreSQL database and one Redis key
 * prefix, with a load balancer in front of the web processes (./balancer.ts, what deploy/Caddyfile does).
 * One set of processes serves every case, in order: the start migrates once; realtime crosses processes;
 * jobs run once on whichever worker; a worker killed with SIGKILL leaves its work to the other; and a
 * rolling restart of the web processes loses no request and no event a reconnecting client reads again.
 * docs/operations.md, "Topology test", says what each case proves.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deleteRedisKeys, nextEvent } from '@balcao/plugin-sdk/testing';
import {
  killWhenTaken,
  LOOPBACK_CHANNEL,
  LOOPBACK_PLUGIN,
  LOOPBACK_URL_VARIABLE,
  type LoopbackProvider,
  numbers,
  startLoopbackProvider,
  type WorkerProcess,
} from '@balcao/plugin-sdk/testing/loopback';
import { CORE_MIGRATIONS, createKnex, DEMO_PASSWORD, migrationFiles, seedDemo } from '@balcao/server';
import type { Knex } from 'knex';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Balancer } from './balancer';
import { bundleUpToDate, type ServerProcess, startProcess } from './processes';

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOSTS = { webA: '127.0.0.2', webB: '127.0.0.3', workerA: '127.0.0.4', workerB: '127.0.0.5' } as const;
const ORIGIN = 'https://shop.example';

/** A message event as the inbox emits it (`company-<id>-appMessage`), the fields these cases read. */
interface AppMessageEvent {
  action: string;
  message: { id: number; body: string; ticketId: number };
}

// the database's name follows the throwaway databases' pattern, so a crashed run's is dropped by the next
const databaseName = `balcao_test_${Math.floor(Date.now() / 1000)}_topo${randomBytes(3).toString('hex')}`;
const databaseUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const redisPrefix = `btopo${randomBytes(4).toString('hex')}`;
const storageDir = path.join(tmpdir(), 'balcao-test-storage', redisPrefix);
const metricsToken = randomBytes(16).toString('hex');

let bundle: string;
let env: Record<string, string>;
let port: number;
let provider: LoopbackProvider;
let knex: Knex;
let balancer: Balancer;
let proxy: string;
const web: Record<'A' | 'B', ServerProcess> = {} as Record<'A' | 'B', ServerProcess>;
const worker: Record<'A' | 'B', ServerProcess> = {} as Record<'A' | 'B', ServerProcess>;
/** Whether each process of the start came up (or the error it stopped with). */
let started: PromiseSettledResult<void>[] = [];

let acmeId: number;
let adminToken: string;
let widgetKey: string;
let loopbackId: number;
let queueId: number;
const sockets: Socket[] = [];

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function spawnRole(name: 'A' | 'B', role: 'web' | 'worker'): ServerProcess {
  const host = role === 'web' ? HOSTS[`web${name}`] : HOSTS[`worker${name}`];
  // the loopback channel's driver runs where deliveries run: the workers. A TypeScript plugin from outside
  // the bundle doubles a process's start (tsx compiles it and the SDK it imports), which the web
  // processes, restarted in the last case, are spared
  const plugins: Record<string, string> =
    role === 'worker' ? { BALCAO_PLUGINS: LOOPBACK_PLUGIN, [LOOPBACK_URL_VARIABLE]: provider.url } : {};
  return startProcess(bundle, { name: `${role} ${name}`, role, host, port }, { ...env, ...plugins });
}

/** An API answer: the status and the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
type Answer = { status: number; body: any };

/** Calls the API at `base` (the balancer or one process). */
async function api(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text as it is
  }
  return { status: res.status, body: parsed };
}

/** A website visitor of Acme's chat: a session through the webchat's public API at `base`; answers its token. */
async function visitor(base: string): Promise<string> {
  const session = await api(base, 'POST', `/api/webchat/${widgetKey}/sessions`, {}, { origin: ORIGIN, authorization: '' });
  expect(session.status, JSON.stringify(session.body)).toBeLessThan(300);
  return session.body.sessionToken as string;
}

/** The visitor writes `text` through the process (or balancer) at `base`; answers the text. */
async function visitorSays(base: string, sessionToken: string, text: string): Promise<string> {
  const sent = await api(
    base,
    'POST',
    `/api/webchat/${widgetKey}/messages`,
    { clientId: randomUUID(), body: text },
    { origin: ORIGIN, authorization: `Bearer ${sessionToken}` },
  );
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return text;
}

/** Sums a counter of a worker's `/metrics` over the series whose labels include `match`. */
async function counter(process: ServerProcess, metric: string, match: string[]): Promise<number> {
  const res = await fetch(`${process.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await res.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`) && match.every((part) => line.includes(part)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

function outputs(): string {
  return [...Object.values(web), ...Object.values(worker)].map((p) => `--- ${p.name}\n${p.output().slice(-3_000)}`).join('\n');
}

beforeAll(async () => {
  [bundle, provider, port] = await Promise.all([bundleUpToDate(), startLoopbackProvider(), freePort()]);
  // an empty database: the four processes migrate it themselves
  await adminQuery(`create database "${databaseName}"`);
  env = {
    NODE_ENV: 'production',
    JWT_SECRET: 'topology-test-'.padEnd(48, 'x'),
    FLOWBUILDER_SECRETS_KEY: '0123456789abcdef'.repeat(4),
    WEBHOOKS_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
    AI_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    STORAGE_DIR: storageDir,
    MIGRATE_ON_START: 'true',
    METRICS_TOKEN: metricsToken,
    // every request of the test comes from one address: the per-address login limit would refuse some
    LOGIN_MAX_PER_IP: '100000',
    // a killed worker's campaign rows come back within the test's time
    CAMPAIGN_LEASE_MS: '1500',
    CAMPAIGN_BATCH: '5',
    // a web process stopping stays up, unready, for ten of the balancer's health checks
    SHUTDOWN_DRAIN_MS: '2000',
    LOG_LEVEL: 'warn',
  };
  // all four at once, as an orchestrator starts them after an upgrade
  web.A = spawnRole('A', 'web');
  web.B = spawnRole('B', 'web');
  worker.A = spawnRole('A', 'worker');
  worker.B = spawnRole('B', 'worker');
  started = await Promise.allSettled([web.A, web.B, worker.A, worker.B].map((p) => p.ready(240_000)));

  balancer = new Balancer(
    [web.A, web.B].map((p) => ({ host: p.host, port: p.port })),
    { intervalMs: 200, tryForMs: 5_000 },
  );
  proxy = await balancer.listen('127.0.0.1');
  knex = createKnex(databaseUrl, 2);
  const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  if (failures.length > 0) throw new Error(`the processes did not all start:\n${failures.join('\n')}`);

  // the data the cases need: the demo's companies and users, Acme's website chat (through the API) and its
  // loopback connection (a test channel: no screen makes one)
  const demo = await seedDemo(knex, { passwordHashCost: 1024, plugins: [] });
  acmeId = demo.companies.acme;
  const login = await api(proxy, 'POST', '/api/auth/login', { email: 'admin@acme.test', password: DEMO_PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  adminToken = login.body.token;
  const webchat = await api(proxy, 'POST', '/api/whatsapp', {
    name: 'Site',
    channel: 'webchat',
    channelConfig: { allowedOrigins: [ORIGIN] },
  });
  expect(webchat.status, JSON.stringify(webchat.body)).toBeLessThan(300);
  widgetKey = webchat.body.channelConfig.widgetKey;
  const online = await api(proxy, 'POST', `/api/whatsappsession/${webchat.body.id}`);
  expect(online.status, JSON.stringify(online.body)).toBeLessThan(300);
  const queue = await api(proxy, 'POST', '/api/queue', { name: 'Vendas', color: '#1677ff', chatbots: [] });
  expect(queue.status, JSON.stringify(queue.body)).toBe(201);
  queueId = queue.body.id;
  const [loopback] = await knex('whatsapps')
    .insert({ companyId: acmeId, name: 'Loopback', channel: LOOPBACK_CHANNEL, status: 'CONNECTED', token: `lb${Date.now()}` })
    .returning('id');
  loopbackId = loopback.id;
}, 420_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await balancer?.close();
  await Promise.all([...Object.values(web), ...Object.values(worker)].map((p) => p.kill9()));
  await knex?.destroy();
  await provider?.close();
  await adminQuery(`drop database if exists "${databaseName}" with (force)`).catch(() => {});
  await deleteRedisKeys(REDIS_URL, redisPrefix).catch(() => {});
  rmSync(storageDir, { recursive: true, force: true });
}, 60_000);

describe('two web and two worker processes behind a balancer', () => {
  it('four processes starting together with MIGRATE_ON_START migrate once, and all serve', async () => {
    const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    expect(failures, outputs()).toEqual([]);
    const tables = (await knex('pg_tables')
      .where('schemaname', 'public')
      .andWhere('tablename', 'like', 'knex\\_migrations\\_%')
      .andWhere('tablename', 'not like', '%\\_lock')
      .pluck('tablename')) as string[];
    expect(tables).toContain('knex_migrations_core');
    expect(tables).toContain('knex_migrations_loopback_channel');
    for (const table of tables) {
      const doubled = await knex(table).select('name').count('* as times').groupBy('name').havingRaw('count(*) > 1');
      expect(doubled, table).toEqual([]);
    }
    // every core migration is recorded once: the first process applied them, the others found them done
    const core = await knex('knex_migrations_core').pluck('name');
    expect(core.length).toBe(migrationFiles(CORE_MIGRATIONS).length);
    expect(new Set(core).size).toBe(core.length);
  });

  it('an agent on web A sees, in real time, a message received through web B', async () => {
    const socket = await companySocketOf(web.A.url);
    const text = `olá pelo B ${randomUUID()}`;
    const live = nextEvent<AppMessageEvent>(
      socket,
      `company-${acmeId}-appMessage`,
      (event) => event.action === 'create' && event.message.body === text,
      10_000,
    );
    await visitorSays(web.B.url, await visitor(web.B.url), text);
    const event = await live;
    expect(event.message.body).toBe(text);
  });

  it('a job runs once on whichever worker takes it: N sends, each delivered once', async () => {
    const count = 40;
    // a contact of the loopback channel (a test channel the contacts API doesn't offer), straight in the database
    const [contact] = await knex('contacts')
      .insert({ companyId: acmeId, name: 'Cliente Loopback', number: '5511988887777', channel: LOOPBACK_CHANNEL })
      .returning('id');
    const ticket = await api(proxy, 'POST', '/api/tickets', {
      contactId: contact.id,
      whatsappId: loopbackId,
      queueId,
      status: 'open',
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    const before = provider.messages.length;
    const jobsBefore = await Promise.all(
      [worker.A, worker.B].map((p) => counter(p, 'balcao_jobs_total', ['job="deliver-message"'])),
    );
    // through the balancer: the sends land on both web processes, their jobs on both workers
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) => api(proxy, 'POST', `/api/messages/${ticket.body.id}`, { body: `envio ${i}` })),
    );
    expect(answers.map((answer) => answer.status).filter((status) => status >= 300)).toEqual([]);
    await provider.waitFor(() => provider.messages.length >= before + count, 30_000);
    const sent = provider.messages.slice(before);
    expect(sent.map((message) => message.body).sort()).toEqual(Array.from({ length: count }, (_, i) => `envio ${i}`).sort());
    expect(provider.repeats).toBe(0);
    // each job ran to its end on exactly one worker, and between them they ran them all
    await expect
      .poll(async () => {
        const after = await Promise.all(
          [worker.A, worker.B].map((p) => counter(p, 'balcao_jobs_total', ['job="deliver-message"'])),
        );
        return after.map((value, i) => value - (jobsBefore[i] ?? 0));
      })
      .toSatisfy((ran: number[]) => ran.reduce((a, b) => a + b, 0) === count);
    const split = await Promise.all([worker.A, worker.B].map((p) => counter(p, 'balcao_jobs_total', ['job="deliver-message"'])));
    console.info(
      `deliveries: worker A ran ${(split[0] ?? 0) - (jobsBefore[0] ?? 0)}, worker B ${(split[1] ?? 0) - (jobsBefore[1] ?? 0)}`,
    );
    expect(provider.messages.length).toBe(before + count);
  });

  it('kill -9 of a worker holding campaign rows: the other finishes, nothing lost, nothing doubled', async () => {
    const recipients = numbers(40, '55479');
    // the campaigns' settings (send at any hour, no pacing) and a contact list, straight in the database
    await knex('campaignSettings').insert(
      [
        ['messageInterval', '0'],
        ['longerIntervalAfter', '0'],
        ['greaterInterval', '0'],
        ['sabado', 'true'],
        ['domingo', 'true'],
        ['startHour', '00:00'],
        ['endHour', '00:00'],
      ].map(([key, value]) => ({ companyId: acmeId, key, value })),
    );
    const [list] = await knex('contactLists')
      .insert({ companyId: acmeId, name: 'Topologia', whatsappId: loopbackId })
      .returning('id');
    await knex('contactListItems').insert(
      recipients.map((number, i) => ({ companyId: acmeId, contactListId: list.id, name: `Pessoa ${i + 1}`, number })),
    );
    const before = provider.messages.length;
    // the provider stand-in kills worker A the moment it takes the 8th message, its request unanswered
    const killed = killWhenTaken(provider, { child: worker.A.child } as WorkerProcess, before + 8);
    const created = await api(proxy, 'POST', '/api/campaigns', {
      name: 'Topologia',
      message1: 'Olá {nome}',
      whatsappId: loopbackId,
      contactListId: list.id,
      scheduledAt: new Date().toISOString(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await provider.waitFor(
      () => provider.messages.slice(before).filter((message) => recipients.includes(message.to)).length >= recipients.length,
      45_000,
    );
    await expect
      .poll(async () => (await api(proxy, 'GET', `/api/campaigns/${created.body.id}`)).body.status, { timeout: 20_000 })
      .toBe('FINALIZADA');
    expect(killed()).toBe(true);
    expect(await worker.A.exited).toBe('SIGKILL');
    const perRecipient = new Map<string, number>();
    for (const message of provider.messages.slice(before)) {
      if (recipients.includes(message.to)) perRecipient.set(message.to, (perRecipient.get(message.to) ?? 0) + 1);
    }
    expect([...perRecipient.keys()].sort()).toEqual([...recipients].sort());
    expect([...perRecipient.values()].every((times) => times === 1)).toBe(true);
    const report = (await api(proxy, 'GET', `/api/campaigns/${created.body.id}`)).body.report;
    expect(report).toMatchObject({ recipients: recipients.length, delivered: recipients.length, failed: 0 });
  });

  it('a rolling restart of both web processes drops no request, and a reconnecting client reads what it missed', {
    timeout: 240_000,
  }, async () => {
    // the client: a socket through the balancer that behaves as the shell's (plugin-sdk/src/ui/realtime.ts):
    // it retries after any drop, the server's own disconnection included, and when it is back after a drop
    // it reads the conversation again (RTK Query's refetch on reconnect): events are not replayed
    const visitorToken = await visitor(proxy);
    const seed = await visitorSays(proxy, visitorToken, `antes do reinício ${randomUUID()}`);
    const ticketUuid = await ticketOf(seed);
    const socket = io(`${proxy}/${acmeId}`, {
      auth: { token: adminToken },
      transports: ['websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 100,
      randomizationFactor: 0,
      forceNew: true,
    });
    sockets.push(socket);
    const seen = new Set<string>();
    let reconnects = 0;
    let connectedBefore = false;
    const refetches: Promise<void>[] = [];
    socket.on(`company-${acmeId}-appMessage`, (event: AppMessageEvent) => {
      if (event.action === 'create') seen.add(event.message.body);
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 100);
    });
    socket.on('connect_error', () => {
      if (!socket.active) setTimeout(() => socket.connect(), 100);
    });
    socket.on('connect', () => {
      if (connectedBefore) {
        reconnects += 1;
        refetches.push(
          api(proxy, 'GET', `/api/messages/${ticketUuid}`).then((res) => {
            for (const message of (res.body.messages ?? []) as Array<{ body: string }>) seen.add(message.body);
          }),
        );
      }
      connectedBefore = true;
    });
    await expect.poll(() => socket.connected, { timeout: 10_000 }).toBe(true);

    // the load: three clients asking the API through the balancer, one request after another, for the whole
    // restart (a short pause between requests leaves the machine's two cores to the processes starting)
    let answered = 0;
    const refused: Array<{ status: number; body: unknown }> = [];
    let loading = true;
    const load = Array.from({ length: 3 }, async () => {
      while (loading) {
        const res = await api(proxy, 'GET', `/api/messages/${ticketUuid}`).catch((error: Error) => ({
          status: 0,
          body: error.message,
        }));
        answered += 1;
        if (res.status < 200 || res.status >= 300) refused.push(res);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    const missed: string[] = [];
    for (const name of ['A', 'B'] as const) {
      const other = name === 'A' ? web.B : web.A;
      const stopping = web[name];
      stopping.child.kill('SIGTERM');
      // it drains: unready for the balancer, yet still serving what reaches it, then it exits cleanly
      await expect
        .poll(async () => (await api(stopping.url, 'GET', '/readyz')).body.status, { timeout: 5_000, interval: 50 })
        .toBe('draining');
      expect((await api(stopping.url, 'GET', `/api/messages/${ticketUuid}`)).status).toBe(200);
      expect(await stopping.exited, stopping.output()).toBe(0);
      // while it is down, a visitor writes through the other process
      missed.push(await visitorSays(other.url, visitorToken, `durante o reinício de ${name} ${randomUUID()}`));
      web[name] = spawnRole(name, 'web');
      await web[name].ready(150_000);
      // the balancer sees it back before the next one stops (an orchestrator waits for readiness too)
      await expect.poll(() => balancer.upstreams.filter((u) => u.healthy).length, { timeout: 10_000 }).toBe(2);
    }
    loading = false;
    await Promise.all(load);

    expect(answered).toBeGreaterThan(20);
    expect(refused).toEqual([]);
    console.info(`rolling restart: ${answered} requests answered 2xx, ${balancer.retried} sent again after a refused connection`);
    expect(balancer.failed).toBe(0);
    // the socket was on a restarted process at least once; what it missed meanwhile, it read back
    expect(reconnects).toBeGreaterThanOrEqual(1);
    await expect
      .poll(
        async () => {
          await Promise.all(refetches);
          return missed.every((text) => seen.has(text));
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });
});

/** A company socket of the admin, without reconnection, connected to `url`. */
async function companySocketOf(url: string): Promise<Socket> {
  const socket = io(`${url}/${acmeId}`, {
    auth: { token: adminToken },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return socket;
}

/** The uuid of the ticket a visitor's message landed on (the API lists a ticket's messages by it). */
async function ticketOf(text: string): Promise<string> {
  const row = await knex('messages as m')
    .join('tickets as t', 't.id', 'm.ticketId')
    .where({ 'm.companyId': acmeId, 'm.body': text })
    .first('t.uuid');
  expect(row).toBeDefined();
  return row.uuid as string;
}
