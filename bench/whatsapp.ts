/**
 * The WhatsApp benchmark (issue 6): the server bundle's WhatsApp sessions (Baileys, our session, inbound
 * pipeline, the inbox) against the loopback WhatsApp peer (plugins/channels/server/whatsapp/testing/peer),
 * which runs in this process and stands for WhatsApp's servers, the companies' phones and their customers.
 *
 * - Inbound: the peer's contacts write to the paired connections; each message is timed from the moment the
 *   peer writes its frame to the connection's socket until the company admin's socket receives
 *   `company-{id}-appMessage` (action create), and every message id must be stored exactly once. One connection
 *   as fast as the server takes them (a fixed number of messages in flight), then at the target's 300 messages/s;
 *   20 connections in one process as fast as they go; then the 20 at a rate below saturation. Messages are
 *   Signal-encrypted by the peer before the measured window (`prepareMany`), so the load generator's share of
 *   the two cores is its socket writes, the agents' sockets and the receipts.
 * - Memory per idle connected session: a server run with --expose-gc (for this measure only), RSS and heap after
 *   full collections with 0, 1 and 20 sessions connected and idle.
 *
 * The server is the production bundle started as a child (bench/lib.ts `startServer`). It is pointed at the peer
 * with WHATSAPP_WS_URL and WHATSAPP_VERSION (no fetch of WhatsApp's current version) and trusts the peer's TLS CA
 * (NODE_EXTRA_CA_CERTS). Baileys pins WhatsApp's Noise root key and is bundled into main.mjs, so a bench-only
 * preload (bench/fixtures/whatsapp-child) replaces that one constant as the bundle loads — nothing in the product
 * trusts a key from the environment.
 *
 * The companies (`WhatsApp Bench 01` …) are made fresh each run, each with an admin and one WhatsApp connection
 * with no queues (the chatbot stays quiet: the path measured is the channel's), paired through the API and the
 * QR code as an admin would; they are deleted at the end.
 *
 * Run with `npm run bench -- whatsapp`.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { companySocket } from '@balcao/plugin-sdk/testing';
import { REPO_ROOT } from '@balcao/server';
import { DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys';
import type { Socket } from 'socket.io-client';
import {
  muteLibsignalConsole,
  type PeerAccount,
  type PeerContact,
  startWhatsAppPeer,
  trustPeerRoot,
  type WhatsAppPeer,
} from '../plugins/channels/server/whatsapp/testing/peer';
import {
  CpuWindow,
  cpuPerRequest,
  type Figure,
  login,
  ms,
  percentile,
  processCpuSeconds,
  reportTo,
  type SectionOptions,
  type ServerProcess,
  startServer,
  withBenchDb,
} from './lib';

const GROUP = 'whatsapp';
const COMPANY_PREFIX = 'WhatsApp Bench';
const CONNECTIONS = Number(process.env.BENCH_WHATSAPP_CONNECTIONS ?? 20);
/** Contacts writing to each connection (more than the 16 chats the inbound pipeline handles at once). */
const CONTACTS = 32;
/**
 * Messages in flight per connection when sending as fast as the server takes them: the fewest that keep the
 * server saturated (measured here: one connection takes no more with 32, 64 or 128 than with 16; 20 connections
 * no more with 8 or 16 each than with 4). More only adds queueing: latency ≈ messages in flight ÷ rate.
 */
const WINDOW_ONE = Number(process.env.BENCH_WHATSAPP_WINDOW ?? 16);
const WINDOW_MANY = Number(process.env.BENCH_WHATSAPP_WINDOW_MANY ?? 4);
/** Messages of the saturating runs: one connection, and each of the 20. */
const MESSAGES_ONE = Number(process.env.BENCH_WHATSAPP_MESSAGES ?? 2_000);
const MESSAGES_EACH = Number(process.env.BENCH_WHATSAPP_MESSAGES_EACH ?? 200);
/** The target: messages a second per connection, and the p99 from the socket frame to the agent's event. */
const TARGET_RATE = 300;
const TARGET_P99_MS = 200;
const TARGET_MB_PER_SESSION = 15;
const FIXED_SECONDS = 10;
/** The 20 connections' rate each, below saturation (c). */
const LIGHT_RATE_EACH = Number(process.env.BENCH_WHATSAPP_LIGHT_RATE ?? 5);
/** How long a server settles before a memory reading (timers run, the memory reducer has its chance). */
const SETTLE_MS = Number(process.env.BENCH_WHATSAPP_SETTLE_MS ?? 10_000);
const PRELOAD = pathToFileURL(path.join(REPO_ROOT, 'bench', 'fixtures', 'whatsapp-child', 'preload.mjs')).href;

const int = (value: number) => Math.round(value).toLocaleString('en-US');
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/** A message the peer encrypted ahead of time (Signal work out of the measured window). */
interface Prepared {
  body: string;
  id: string;
  send(): void;
}

interface BenchContact {
  peer: PeerContact;
  queue: Prepared[];
}

/** One company with its admin, its WhatsApp connection and the peer's account and contacts for it. */
interface Connection {
  companyId: number;
  whatsappId: number;
  email: string;
  token: string;
  account: PeerAccount;
  contacts: BenchContact[];
  socket: Socket | null;
  prepared: number;
  cursor: number;
}

/**
 * Deletes the bench companies and everything of theirs. A plain `DELETE FROM companies` cascades row by row,
 * and a few foreign keys of `messages` have no index (docs/benchmarks.md, inbox): with the inbox's million
 * messages in the same database that is a scan per deleted row. So, as the inbox bench does, the rows go
 * table by table with the foreign-key triggers off for this transaction: every table with a `company_id`
 * referencing companies (found in the catalogue, whoever adds one), then the companies.
 */
async function removeCompanies(): Promise<void> {
  await withBenchDb(async (db) => {
    const ids = (await db.query<{ id: number }>('SELECT id FROM companies WHERE name LIKE $1', [`${COMPANY_PREFIX} %`])).rows.map(
      (row) => row.id,
    );
    if (ids.length === 0) return;
    await db.query('BEGIN');
    try {
      await db.query('SET LOCAL session_replication_role = replica');
      const tables = (
        await db.query<{ child: string }>(
          `SELECT DISTINCT c.conrelid::regclass::text AS child
           FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
           WHERE c.contype = 'f' AND c.confrelid = 'companies'::regclass AND a.attname = 'company_id'`,
        )
      ).rows;
      for (const { child } of tables) await db.query(`DELETE FROM ${child} WHERE company_id = ANY($1)`, [ids]);
      await db.query('DELETE FROM companies WHERE id = ANY($1)', [ids]);
      await db.query('COMMIT');
    } catch (error) {
      await db.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}

/** The bench companies: each an admin (demo password), the acme settings and one WhatsApp connection, never paired. */
async function createCompanies(peer: WhatsAppPeer): Promise<Connection[]> {
  return withBenchDb(async (db) => {
    await db.query('BEGIN');
    try {
      const plan = await db.query<{ id: number }>(
        `INSERT INTO plans (name, users, connections, queues, amount, is_public, use_whatsapp)
         VALUES ('WhatsApp bench plan', 10, 10, 10, 1, false, true)
         ON CONFLICT (name) DO UPDATE SET use_whatsapp = true RETURNING id`,
      );
      const connections: Connection[] = [];
      for (let index = 0; index < CONNECTIONS; index++) {
        const nn = String(index + 1).padStart(2, '0');
        const company = await db.query<{ id: number }>(
          `INSERT INTO companies (name, email, plan_id, due_date, status)
           VALUES ($1, $2, $3, now() + interval '10 years', true) RETURNING id`,
          [`${COMPANY_PREFIX} ${nn}`, `whatsapp-bench-${nn}@bench.test`, plan.rows[0]?.id],
        );
        const companyId = company.rows[0]?.id as number;
        const email = `admin@whatsapp-bench-${nn}.test`;
        await db.query(
          `INSERT INTO users (company_id, name, email, password_hash, profile)
           SELECT $1, $2, $3, password_hash, 'admin' FROM users WHERE email = 'admin@acme.test'`,
          [companyId, `Bench admin ${nn}`, email],
        );
        await db.query(
          `INSERT INTO settings (company_id, key, value)
           SELECT $1, key, value FROM settings WHERE company_id = (SELECT company_id FROM users WHERE email = 'admin@acme.test')`,
          [companyId],
        );
        const connection = await db.query<{ id: number }>(
          `INSERT INTO whatsapps (company_id, name, channel, status, is_default, token)
           VALUES ($1, $2, 'whatsapp', 'DISCONNECTED', true, $3) RETURNING id`,
          [companyId, `WhatsApp bench ${nn}`, `WhatsAppBench${nn}`.padEnd(30, '0')],
        );
        const account = peer.account(`55118000${nn.padStart(5, '0')}`, { pushName: `Empresa ${nn}` });
        const contacts = Array.from({ length: CONTACTS }, (_, c) => ({
          peer: peer.contact(`5521${nn}9${String(c).padStart(6, '0')}`, { pushName: `Cliente ${nn}-${c}` }),
          queue: [],
        }));
        connections.push({
          companyId,
          whatsappId: connection.rows[0]?.id as number,
          email,
          token: '',
          account,
          contacts,
          socket: null,
          prepared: 0,
          cursor: 0,
        });
      }
      await db.query('COMMIT');
      return connections;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}

async function connectionRows(connections: Connection[]): Promise<Map<number, { status: string; qrcode: string }>> {
  return withBenchDb(async (db) => {
    const rows = await db.query<{ id: number; status: string; qrcode: string | null }>(
      'SELECT id, status, qrcode FROM whatsapps WHERE id = ANY($1)',
      [connections.map((c) => c.whatsappId)],
    );
    return new Map(rows.rows.map((row) => [row.id, { status: row.status, qrcode: row.qrcode ?? '' }]));
  });
}

/** Polls until `check` answers something truthy; throws after `timeoutMs`. */
async function until<T>(check: () => Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function api(base: string, token: string, method: string, url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.text() };
}

/** Starts a connection's session as its admin would (POST /api/whatsappsession/:id). */
async function startSession(base: string, connection: Connection): Promise<void> {
  const res = await api(base, connection.token, 'POST', `/api/whatsappsession/${connection.whatsappId}`);
  if (res.status !== 200) throw new Error(`start of connection ${connection.whatsappId}: ${res.status} ${res.body}`);
}

/** Pairs a connection: start as the admin, the QR code from `whatsapps.qrcode`, the phone scans it, CONNECTED. */
async function pair(base: string, peer: WhatsAppPeer, connection: Connection): Promise<void> {
  await startSession(base, connection);
  const qr = await until(
    async () => {
      const row = (await connectionRows([connection])).get(connection.whatsappId);
      return row?.status === 'qrcode' && row.qrcode ? row.qrcode : null;
    },
    30_000,
    `the QR code of connection ${connection.whatsappId}`,
  );
  await peer.scanQr(qr, connection.account);
  await until(
    async () => (await connectionRows([connection])).get(connection.whatsappId)?.status === 'CONNECTED',
    30_000,
    `connection ${connection.whatsappId} CONNECTED`,
  );
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

let sequence = 0;

/** Encrypts `count` more messages for a connection, spread over its contacts in turn. */
async function prepare(connection: Connection, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const contact = connection.contacts[connection.prepared++ % connection.contacts.length] as BenchContact;
    sequence += 1;
    const body = `Olá, preciso de ajuda com o pedido ${sequence}`;
    const batch = await contact.peer.prepareMany(connection.account, [body]);
    contact.queue.push({ body, id: batch.ids[0] as string, send: batch.send });
  }
}

/** The next prepared message of a connection, its contacts in turn (each contact's in the order encrypted). */
function takeNext(connection: Connection): Prepared | undefined {
  for (let tries = 0; tries < connection.contacts.length; tries++) {
    const contact = connection.contacts[connection.cursor++ % connection.contacts.length] as BenchContact;
    const next = contact.queue.shift();
    if (next) return next;
  }
  return undefined;
}

/** One connection's part of a run. */
interface ConnectionRun {
  connection: Connection;
  /** Messages the run meant to send (a fixed-rate run that fell behind sends fewer: `total`). */
  planned: number;
  total: number;
  sent: number;
  delivered: number;
  inflight: number;
  firstSentAt: number;
  lastDeliveredAt: number;
  latencies: number[];
  ids: string[];
  /** Times the sender could not send when due (too many in flight). */
  behind: number;
}

interface RunResult {
  runs: ConnectionRun[];
  planned: number;
  sent: number;
  delivered: number;
  latencies: number[];
  /** From the first frame written to the last event received. */
  seconds: number;
  cpu: string;
  stored: StoredCheck;
}

/** Messages written and not yet seen on an agent's socket, by body. */
const inflight = new Map<string, { run: ConnectionRun; sentAt: number; wake: () => void }>();

/** Every agent socket reports its `appMessage` creates here. */
function onAppMessage(payload: { action?: string; message?: { body?: string; fromMe?: boolean } }): void {
  const at = performance.now();
  if (payload?.action !== 'create' || payload.message?.fromMe) return;
  const entry = inflight.get(payload.message?.body ?? '');
  if (!entry) return;
  inflight.delete(payload.message?.body ?? '');
  const { run } = entry;
  run.latencies.push(at - entry.sentAt);
  run.delivered += 1;
  run.inflight -= 1;
  run.lastDeliveredAt = at;
  entry.wake();
}

function newRun(connection: Connection, total: number): ConnectionRun {
  return {
    connection,
    planned: total,
    total,
    sent: 0,
    delivered: 0,
    inflight: 0,
    firstSentAt: 0,
    lastDeliveredAt: 0,
    latencies: [],
    ids: [],
    behind: 0,
  };
}

/** Writes a connection's next prepared message to its socket (the peer delivers it at once). */
function sendOne(run: ConnectionRun, wake: () => void): boolean {
  const message = takeNext(run.connection);
  if (!message) return false;
  const sentAt = performance.now();
  if (run.sent === 0) run.firstSentAt = sentAt;
  inflight.set(message.body, { run, sentAt, wake });
  run.sent += 1;
  run.inflight += 1;
  run.ids.push(message.id);
  message.send();
  return true;
}

/** Resolves when every run delivered what it sent, or when nothing arrived for `stallMs`. */
function allDelivered(runs: ConnectionRun[], stallMs = 30_000): Promise<void> {
  return new Promise((resolve) => {
    let last = -1;
    let lastChange = Date.now();
    const check = () => {
      const delivered = runs.reduce((sum, run) => sum + run.delivered, 0);
      const done = runs.every((run) => run.sent === run.total && run.inflight === 0);
      if (delivered !== last) {
        last = delivered;
        lastChange = Date.now();
      }
      if (done || Date.now() - lastChange > stallMs) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
}

/**
 * As fast as the server takes them: each connection keeps `window` messages in flight (written, not yet on the
 * agent's socket) until it has sent `each`; every event received lets the next message go.
 */
async function closedLoop(connections: Connection[], each: number, window: number): Promise<ConnectionRun[]> {
  const runs = connections.map((connection) => newRun(connection, each));
  for (const run of runs) {
    const pump = () => {
      while (run.inflight < window && run.sent < run.total) if (!sendOne(run, pump)) run.total = run.sent;
    };
    pump();
  }
  await allDelivered(runs);
  return runs;
}

/**
 * At a fixed rate: each connection writes `rate` messages a second for `seconds` (checked every 10 ms). A
 * connection with two seconds' worth of messages pending waits, and counts it: when the server can't keep up,
 * fewer than planned are sent by the end, and the rate is what it took.
 */
async function fixedRate(connections: Connection[], rate: number, seconds: number): Promise<ConnectionRun[]> {
  const maxInFlight = Math.max(8, rate * 2);
  const runs = connections.map((connection) => newRun(connection, Math.round(rate * seconds)));
  const began = performance.now();
  const nothing = () => {};
  while (performance.now() - began < seconds * 1000 && runs.some((run) => run.sent < run.total)) {
    const elapsed = (performance.now() - began) / 1000;
    for (const [index, run] of runs.entries()) {
      // each connection's schedule is shifted by its share of the interval: customers of different
      // companies don't write in step (in step, each round is a burst of one message per connection, and
      // the last of a burst waits for all the others)
      const phase = index / (runs.length * rate);
      const due = elapsed < phase ? 0 : Math.floor((elapsed - phase) * rate) + 1;
      while (run.sent < Math.min(due, run.total)) {
        if (run.inflight >= maxInFlight) {
          run.behind += 1;
          break;
        }
        if (!sendOne(run, nothing)) {
          run.total = run.sent;
          break;
        }
      }
    }
    await sleep(10);
  }
  for (const run of runs) run.total = run.sent;
  await allDelivered(runs);
  return runs;
}

interface StoredCheck {
  ids: number;
  missing: number;
  duplicated: number;
}

/** Every message id of the run: exactly one row in `messages` of its connection. */
async function storedOnce(runs: ConnectionRun[]): Promise<StoredCheck> {
  return withBenchDb(async (db) => {
    let ids = 0;
    let missing = 0;
    let duplicated = 0;
    for (const run of runs) {
      const rows = await db.query<{ id: string; n: number }>(
        `SELECT channel_message_id AS id, count(*)::int AS n FROM messages
         WHERE company_id = $1 AND channel_message_id = ANY($2) GROUP BY 1`,
        [run.connection.companyId, run.ids],
      );
      const counts = new Map(rows.rows.map((row) => [row.id, row.n]));
      for (const id of run.ids) {
        const n = counts.get(id) ?? 0;
        ids += 1;
        if (n === 0) missing += 1;
        if (n > 1) duplicated += 1;
      }
    }
    return { ids, missing, duplicated };
  });
}

/** CPU seconds of the machine's Redis (the server's socket.io adapter and broadcast), from /proc. */
function redisCpuSeconds(): number {
  let seconds = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'redis-server') seconds += processCpuSeconds(entry);
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/** Prepares what a run needs (outside the measured window), measures it and checks what was stored. */
async function measure(
  serverPid: number,
  connections: Connection[],
  perConnection: number,
  run: () => Promise<ConnectionRun[]>,
): Promise<RunResult> {
  for (const connection of connections) {
    const queued = connection.contacts.reduce((sum, contact) => sum + contact.queue.length, 0);
    if (queued < perConnection) await prepare(connection, perConnection - queued);
  }
  const redisBefore = redisCpuSeconds();
  const cpu = CpuWindow.start(serverPid);
  const runs = await run();
  const used = cpu.end();
  const redis = redisCpuSeconds() - redisBefore;
  const serverCores = used.server / used.seconds;
  const delivered = runs.reduce((sum, r) => sum + r.delivered, 0);
  const first = Math.min(...runs.map((r) => r.firstSentAt));
  const last = Math.max(...runs.map((r) => r.lastDeliveredAt));
  for (const r of runs) {
    // the undelivered are forgotten: a late event must not count in the next run
    for (const [body, entry] of inflight) if (entry.run === r) inflight.delete(body);
  }
  return {
    runs,
    planned: runs.reduce((sum, r) => sum + r.planned, 0),
    sent: runs.reduce((sum, r) => sum + r.sent, 0),
    delivered,
    latencies: runs.flatMap((r) => r.latencies),
    seconds: (last - first) / 1000,
    cpu:
      `${cpuPerRequest(used, delivered).replace('per request', 'per message')} ` +
      `(Redis, the socket.io adapter, one of them: ${((redis * 1000) / Math.max(1, delivered)).toFixed(2)} ms per message); ` +
      `the server process used ${serverCores.toFixed(2)} cores (its JavaScript runs on one)`,
    stored: await storedOnce(runs),
  };
}

function latencySummary(result: RunResult): string {
  const { latencies } = result;
  return (
    `p50 ${ms(percentile(latencies, 50))} ms, p95 ${ms(percentile(latencies, 95))} ms, ` +
    `p99 ${ms(percentile(latencies, 99))} ms, max ${ms(latencies.reduce((a, b) => Math.max(a, b), 0))} ms`
  );
}

/** "3,000 sent", or "1,150 sent of the 3,000 planned" when a fixed-rate run fell behind. */
function sentOf(result: RunResult): string {
  return result.sent < result.planned
    ? `${int(result.sent)} sent of the ${int(result.planned)} planned`
    : `${int(result.sent)} sent`;
}

function storedSummary(result: RunResult): string {
  const { stored } = result;
  return `stored once: ${int(stored.ids)} ids, ${stored.missing} missing, ${stored.duplicated} duplicated`;
}

const storedOk = (result: RunResult) =>
  result.stored.missing === 0 && result.stored.duplicated === 0 && result.delivered === result.sent;

/** A connection's rate in a run: its messages from its first frame to its last event. */
const rateOf = (run: ConnectionRun) => run.delivered / Math.max(1e-3, (run.lastDeliveredAt - run.firstSentAt) / 1000);

/** Extra node flags for the server child, around bench/lib.ts's BENCH_NODE_ARGS (kept: a profile still works). */
function startWhatsAppServer(port: number, env: Record<string, string>, nodeArgs: string[]): Promise<ServerProcess> {
  const previous = process.env.BENCH_NODE_ARGS;
  process.env.BENCH_NODE_ARGS = [...nodeArgs, previous ?? ''].join(' ').trim();
  try {
    // startServer reads BENCH_NODE_ARGS and spawns before its first await
    return startServer(port, env);
  } finally {
    if (previous === undefined) delete process.env.BENCH_NODE_ARGS;
    else process.env.BENCH_NODE_ARGS = previous;
  }
}

async function loginAll(base: string, connections: Connection[]): Promise<void> {
  for (const connection of connections) connection.token = await login(base, connection.email);
}

async function openSockets(base: string, connections: Connection[]): Promise<void> {
  for (const connection of connections) {
    const socket = companySocket(base, connection.companyId, connection.token);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.on(`company-${connection.companyId}-appMessage`, onAppMessage);
    connection.socket = socket;
  }
}

function closeSockets(connections: Connection[]): void {
  for (const connection of connections) {
    connection.socket?.close();
    connection.socket = null;
  }
}

async function setStatus(connections: Connection[], status: string): Promise<void> {
  await withBenchDb((db) =>
    db.query('UPDATE whatsapps SET status = $2 WHERE id = ANY($1)', [connections.map((c) => c.whatsappId), status]),
  );
}

async function inboundBenchmarks(
  port: number,
  env: Record<string, string>,
  peer: WhatsAppPeer,
  connections: Connection[],
  push: (figure: Figure) => void,
  log: (line: string) => void,
): Promise<void> {
  const server = await startWhatsAppServer(port, env, [`--import=${PRELOAD}`]);
  const pid = server.child.pid ?? 0;
  try {
    await loginAll(server.url, connections);
    const pairingBegan = performance.now();
    await pool(connections, 4, (connection) => pair(server.url, peer, connection));
    const pairingSeconds = (performance.now() - pairingBegan) / 1000;
    log(`whatsapp: ${connections.length} connections paired by QR in ${pairingSeconds.toFixed(1)} s`);
    await openSockets(server.url, connections);

    // every contact's first message opens its ticket (not measured: the runs below write on open tickets)
    const first = await measure(pid, connections, CONTACTS, () => closedLoop(connections, CONTACTS, CONTACTS));
    log(`whatsapp: ${int(first.delivered)} of ${int(first.sent)} first messages (new tickets) in ${first.seconds.toFixed(1)} s`);
    // warm-up: JIT, caches, Signal sessions settled
    await measure(pid, connections, 50, () => closedLoop(connections, 50, WINDOW_MANY));

    const [one] = connections as [Connection];
    const saturated = await measure(pid, [one], MESSAGES_ONE, () => closedLoop([one], MESSAGES_ONE, WINDOW_ONE));
    const rateOne = saturated.delivered / saturated.seconds;
    log(`whatsapp: one connection, ${WINDOW_ONE} in flight: ${int(rateOne)} msg/s, ${latencySummary(saturated)}`);
    const atTarget = await measure(pid, [one], TARGET_RATE * FIXED_SECONDS, () => fixedRate([one], TARGET_RATE, FIXED_SECONDS));
    log(`whatsapp: one connection at ${TARGET_RATE} msg/s: ${latencySummary(atTarget)}`);
    const p99Target = percentile(atTarget.latencies, 99);
    push({
      group: GROUP,
      name:
        `Inbound, one connection (${CONTACTS} contacts): as fast as the server takes them (${WINDOW_ONE} messages in flight), ` +
        `then at ${TARGET_RATE} messages/s for ${FIXED_SECONDS} s; peer writes the frame → Baileys → stored → the admin's socket (appMessage create)`,
      target: `≥ ${TARGET_RATE} msg/s, p99 ≤ ${TARGET_P99_MS} ms, stored once`,
      value: `${int(rateOne)} msg/s; at ${TARGET_RATE} msg/s p99 ${ms(p99Target)} ms`,
      ok: rateOne >= TARGET_RATE && p99Target <= TARGET_P99_MS && storedOk(saturated) && storedOk(atTarget),
      detail:
        `as fast as it goes: ${int(saturated.delivered)} of ${int(saturated.sent)} delivered in ${saturated.seconds.toFixed(1)} s, ` +
        `${latencySummary(saturated)}; ${storedSummary(saturated)}; ${saturated.cpu}<br>` +
        `at ${TARGET_RATE} msg/s: ${sentOf(atTarget)}, ${int(atTarget.delivered)} delivered in ${atTarget.seconds.toFixed(1)} s ` +
        `(${int(atTarget.delivered / atTarget.seconds)} msg/s), ${latencySummary(atTarget)}` +
        `${atTarget.runs[0]?.behind ? `; the sender waited ${atTarget.runs[0].behind}×` : ''}; ${storedSummary(atTarget)}; ${atTarget.cpu}`,
    });

    const many = await measure(pid, connections, MESSAGES_EACH, () => closedLoop(connections, MESSAGES_EACH, WINDOW_MANY));
    const rates = many.runs.map(rateOf).sort((a, b) => a - b);
    const aggregate = many.delivered / many.seconds;
    const worstP99 = Math.max(...many.runs.map((run) => percentile(run.latencies, 99)));
    log(`whatsapp: ${connections.length} connections: ${int(aggregate)} msg/s, ${latencySummary(many)}`);
    push({
      group: GROUP,
      name: `Inbound, ${connections.length} connections in one server process (${CONTACTS} contacts each), as fast as the server takes them (${WINDOW_MANY} messages in flight per connection)`,
      target: `${connections.length} × ≥ ${TARGET_RATE} msg/s (${int(connections.length * TARGET_RATE)} msg/s), p99 ≤ ${TARGET_P99_MS} ms, stored once`,
      value: `${int(aggregate)} msg/s in all (${int(rates[0] ?? 0)}–${int(rates[rates.length - 1] ?? 0)} per connection), p99 ${ms(percentile(many.latencies, 99))} ms`,
      ok: (rates[0] ?? 0) >= TARGET_RATE && percentile(many.latencies, 99) <= TARGET_P99_MS && storedOk(many),
      detail:
        `${int(many.delivered)} of ${int(many.sent)} delivered in ${many.seconds.toFixed(1)} s; per connection median ${int(percentile(rates, 50))} msg/s; ` +
        `${latencySummary(many)} (worst connection's p99 ${ms(worstP99)} ms); ${storedSummary(many)}; ${many.cpu}<br>` +
        `before the runs, every contact's first message at once (${int(first.sent)} new conversations: contact, ticket): ` +
        `${int(first.delivered)} delivered in ${first.seconds.toFixed(1)} s, ${latencySummary(first)}; ${storedSummary(first)}; ${first.cpu}`,
    });

    const light = await measure(pid, connections, LIGHT_RATE_EACH * FIXED_SECONDS, () =>
      fixedRate(connections, LIGHT_RATE_EACH, FIXED_SECONDS),
    );
    log(`whatsapp: ${connections.length} connections at ${LIGHT_RATE_EACH} msg/s each: ${latencySummary(light)}`);
    const behind = light.runs.reduce((sum, run) => sum + run.behind, 0);
    push({
      group: GROUP,
      name: `Inbound, ${connections.length} connections at ${LIGHT_RATE_EACH} messages/s each (${int(connections.length * LIGHT_RATE_EACH)} msg/s in all, below saturation) for ${FIXED_SECONDS} s`,
      target: `p99 ≤ ${TARGET_P99_MS} ms, stored once`,
      value: `p99 ${ms(percentile(light.latencies, 99))} ms`,
      ok: percentile(light.latencies, 99) <= TARGET_P99_MS && storedOk(light),
      detail:
        `${sentOf(light)}, ${int(light.delivered)} delivered in ${light.seconds.toFixed(1)} s (${int(light.delivered / light.seconds)} msg/s); ` +
        `${latencySummary(light)}${behind ? `; the senders waited ${behind}×` : ''}; ${storedSummary(light)}; ${light.cpu}`,
    });
  } finally {
    closeSockets(connections);
    await server.stop();
  }
}

interface MemoryReading {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  at: number;
}

/** Full collections in the server (SIGUSR2 to the bench preload), then its memory figures. */
async function readMemory(server: ServerProcess, file: string): Promise<MemoryReading> {
  const asked = Date.now();
  server.child.kill('SIGUSR2');
  return until(
    async () => {
      try {
        const reading = JSON.parse(readFileSync(file, 'utf8')) as MemoryReading;
        return reading.at >= asked ? reading : null;
      } catch {
        return null;
      }
    },
    10_000,
    'the server memory reading',
  );
}

/**
 * The memory of a server left alone: collected once after `SETTLE_MS` (what is garbage by then goes, and its
 * pages are returned), read again 5 s later. Startup leaves enough behind that a single reading right after
 * a burst of work varies by tens of MB.
 */
async function settledMemory(server: ServerProcess, file: string): Promise<MemoryReading> {
  await sleep(SETTLE_MS);
  await readMemory(server, file);
  await sleep(5_000);
  return readMemory(server, file);
}

async function memoryBenchmark(
  port: number,
  env: Record<string, string>,
  connections: Connection[],
  push: (figure: Figure) => void,
  log: (line: string) => void,
): Promise<void> {
  // the sessions stay paired (keys in Postgres) but none runs until its admin starts it
  await setStatus(connections, 'DISCONNECTED');
  const file = path.join(os.tmpdir(), `balcao-bench-whatsapp-memory-${process.pid}.json`);
  const server = await startWhatsAppServer(port, { ...env, BENCH_WA_MEMORY_FILE: file }, ['--expose-gc', `--import=${PRELOAD}`]);
  const mb = (bytes: number) => bytes / 2 ** 20;
  try {
    await loginAll(server.url, connections);
    const connectAll = async (group: Connection[]) => {
      const logins = new Map(group.map((c) => [c, c.account.loginCount]));
      await pool(group, 4, (connection) => startSession(server.url, connection));
      await until(
        async () => {
          const rows = await connectionRows(group);
          return group.every(
            (c) => rows.get(c.whatsappId)?.status === 'CONNECTED' && c.account.loginCount > (logins.get(c) ?? 0),
          );
        },
        60_000,
        'the sessions CONNECTED',
      );
    };
    const zero = await settledMemory(server, file);
    const [first, ...rest] = connections as [Connection, ...Connection[]];
    await connectAll([first]);
    const one = await settledMemory(server, file);
    await connectAll(rest);
    const all = await settledMemory(server, file);
    const n = connections.length;
    const perSession = mb(all.rss - zero.rss) / n;
    const heapPerSession = mb(all.heapUsed - zero.heapUsed) / n;
    const marginal = mb(all.rss - one.rss) / (n - 1);
    log(
      `whatsapp: RSS ${mb(zero.rss).toFixed(0)} MB with 0 sessions, ${mb(one.rss).toFixed(0)} MB with 1, ${mb(all.rss).toFixed(0)} MB with ${n}`,
    );
    push({
      group: GROUP,
      name:
        `Memory per idle connected session: (RSS with ${n} sessions − RSS with none) ÷ ${n}, one server process ` +
        `(run with --expose-gc for this measure only), each reading after ${SETTLE_MS / 1000 + 5} s idle and full garbage collections`,
      target: `≤ ${TARGET_MB_PER_SESSION} MB`,
      value: `${perSession.toFixed(1)} MB`,
      ok: perSession <= TARGET_MB_PER_SESSION,
      detail:
        `RSS ${mb(zero.rss).toFixed(0)} MB with none, ${mb(one.rss).toFixed(0)} MB with 1, ${mb(all.rss).toFixed(0)} MB with ${n}; ` +
        `from 1 to ${n}: ${marginal.toFixed(1)} MB per session; ` +
        `V8 heap used ${mb(zero.heapUsed).toFixed(0)} → ${mb(all.heapUsed).toFixed(0)} MB (${heapPerSession.toFixed(1)} MB per session), ` +
        `external ${mb(zero.external).toFixed(0)} → ${mb(all.external).toFixed(0)} MB`,
    });
  } finally {
    await server.stop();
    rmSync(file, { force: true });
  }
}

export async function whatsappBenchmarks(options: SectionOptions): Promise<void> {
  const log = options.log ?? console.log;
  const push = reportTo(options);
  muteLibsignalConsole();
  await removeCompanies();
  const peer = await startWhatsAppPeer();
  // the server trusts the peer's TLS CA (media over https) besides whatever the machine already adds
  const caFile = path.join(os.tmpdir(), `balcao-bench-whatsapp-ca-${process.pid}.pem`);
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  let existing = '';
  try {
    existing = extra ? readFileSync(extra, 'utf8') : '';
  } catch {
    // unreadable: only the peer's
  }
  writeFileSync(caFile, `${existing.trimEnd()}\n${peer.tls.ca}`);
  const env = {
    WHATSAPP_WS_URL: peer.url,
    WHATSAPP_VERSION: DEFAULT_CONNECTION_CONFIG.version.join(','),
    NODE_EXTRA_CA_CERTS: caFile,
    BENCH_WA_ROOT_KEY: Buffer.from(trustPeerRoot()).toString('hex'),
  };
  try {
    const connections = await createCompanies(peer);
    await inboundBenchmarks(options.port, env, peer, connections, push, log);
    await memoryBenchmark(options.port, env, connections, push, log);
  } finally {
    await peer.stop();
    rmSync(caFile, { force: true });
    // no server may find these sessions later and try the real WhatsApp
    await removeCompanies();
  }
}
