/** Helpers shared by the benchmarks: a dedicated database, a server process, timing and reporting. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createKnex,
  DEMO_LOGINS,
  discoverPlugins,
  loadConfig,
  migrateAll,
  migrationOwners,
  REPO_ROOT,
  seedDemo,
} from '@balcao/server';
import pg from 'pg';

export const BENCH_DATABASE = process.env.BENCH_DATABASE ?? 'balcao_bench';
/** The bench processes' Redis prefix: benches of two checkouts run at once keep their jobs and events apart. */
export const BENCH_REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'balcao-bench';
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function benchDatabaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${BENCH_DATABASE}`;
  return url.toString();
}

/** Runs `work` on a connection of its own to the bench database, closed afterwards. */
export async function withBenchDb<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: benchDatabaseUrl() });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/**
 * Creates (if needed), migrates and seeds the bench database, so measured starts find migrations applied.
 * A database whose recorded migrations no longer exist (a migration renamed or folded into another while
 * a feature is being written) is dropped and made again: it holds nothing but bench data.
 */
export async function prepareDatabase(): Promise<void> {
  try {
    await migrateAndSeed();
  } catch (error) {
    if (!/migration directory is corrupt/i.test((error as Error).message)) throw error;
    console.log(`${BENCH_DATABASE}: its migrations no longer match the code (${(error as Error).message}); re-creating it`);
    await dropBenchDatabase();
    await migrateAndSeed();
  }
}

/** Drops the bench database (closing its connections). */
export async function dropBenchDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${BENCH_DATABASE}" with (force)`);
  } finally {
    await admin.end();
  }
}

async function migrateAndSeed(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [BENCH_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`create database "${BENCH_DATABASE}"`);
  } finally {
    await admin.end();
  }
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: benchDatabaseUrl(),
    NODE_ENV: 'production',
    JWT_SECRET: 'x'.repeat(48),
    FLOWBUILDER_SECRETS_KEY: '0123456789abcdef'.repeat(4),
    AI_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
  });
  const knex = createKnex(config.databaseUrl, 2);
  try {
    await migrateAll(knex, migrationOwners(discoverPlugins(config.extraPlugins)));
    await seedDemo(knex, { passwordHashCost: config.passwordHashCost, plugins: [] });
  } finally {
    await knex.destroy();
  }
}

/** A Balcão server process started the way `npm start` and production start it: the server bundle. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first 200 of /readyz. */
  readyMs: number;
  stop(): Promise<void>;
}

export async function startServer(port: number, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const began = performance.now();
  // BENCH_NODE_ARGS: extra flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(REPO_ROOT, '.build', 'server', 'main.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
      FLOWBUILDER_SECRETS_KEY: '0123456789abcdef'.repeat(4),
      WEBHOOKS_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
      AI_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
      DATABASE_URL: benchDatabaseUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: BENCH_REDIS_PREFIX,
      // every login of the benches comes from 127.0.0.1 (the inbox logs in 51 users a run, WhatsApp its
      // admins twice): the per-address login limit would refuse the sections that run after them
      LOGIN_MAX_PER_IP: '100000',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    // its own process group, so a start that fails takes down whatever the server started too
    detached: true,
  });
  // a bench process that ends (or throws) without stopping the server leaves no server behind
  const killGroup = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killGroup);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      killGroup();
      await new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
      );
      throw new Error('server not ready within 60 s (killed)');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - began;
  return {
    child,
    url,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', killGroup);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export async function login(url: string, email: string = DEMO_LOGINS[1].email): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/**
 * How fast this machine is, in two fixed workloads, so that readings taken on different machines can be
 * compared (the sessions' VMs have differed by up to five times for the same code): the median of three runs
 * of a fixed JavaScript workload (JSON of a ticket page: parse and stringify, 5,000 times), and the median
 * round trip of 2,000 sequential `SELECT 1` to Postgres over loopback (a statement's fixed cost: two socket
 * writes and two wake-ups, which is most of a hot read's cost on a slow VM).
 */
export async function machineReference(): Promise<string> {
  const page = JSON.stringify({
    tickets: Array.from({ length: 25 }, (_, i) => ({
      id: i,
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      status: 'open',
      contact: { id: i, name: `Contato ${i}`, number: '5598999990000', urlPicture: null },
      lastMessage: 'Olá, gostaria de saber o status do meu pedido',
      tags: [{ id: 1, name: 'VIP', color: '#f00' }],
      updatedAt: '2026-11-26T10:00:00.000Z',
    })),
  });
  const jsRuns: number[] = [];
  for (let run = 0; run < 3; run++) {
    const began = performance.now();
    let length = 0;
    for (let i = 0; i < 5_000; i++) length += JSON.stringify(JSON.parse(page)).length;
    if (length === 0) throw new Error('unreachable');
    jsRuns.push(performance.now() - began);
  }
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  const trips: number[] = [];
  try {
    for (let i = 0; i < 2_200; i++) {
      const began = performance.now();
      await client.query({ name: 'bench_reference', text: 'SELECT 1' });
      if (i >= 200) trips.push(performance.now() - began); // the first ones warm the connection up
    }
  } finally {
    await client.end();
  }
  return `reference: JS workload ${median(jsRuns).toFixed(0)} ms, Postgres round trip ${(median(trips) * 1000).toFixed(0)} µs`;
}

/** One measured figure, as docs/benchmarks.md and bench/results/latest.json show it. */
export interface Figure {
  /** The docs section it belongs to (`plugin-host`, `inbox`). */
  group: string;
  name: string;
  target: string;
  value: string;
  ok: boolean;
  detail?: string;
}

/** The p-th percentile (0–100) of values, nearest rank. */
/** A figure as one line of the bench's output: ✓ or ✗, name, value, and the detail on the same line. */
function figureLine(figure: Figure): string {
  return `${figure.ok ? '✓' : '✗'} ${figure.name}: ${figure.value}${figure.detail ? ` — ${figure.detail.replaceAll('<br>', '; ')}` : ''}`;
}

/** What `bench/run.ts` hands each section: the server's port, where figures go, where lines go. */
export interface SectionOptions {
  port: number;
  push: (figure: Figure) => void;
  log?: (line: string) => void;
}

/** A latency in milliseconds as the figures write it: one decimal below 100. */
export const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

/** Where a section's figures go: to the run's list, and one line each to the output as they come. */
export function reportTo(options: Pick<SectionOptions, 'push' | 'log'>): (figure: Figure) => void {
  const log = options.log ?? console.log;
  return (figure) => {
    options.push(figure);
    log(figureLine(figure));
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Milliseconds since the epoch with sub-millisecond precision (the same clock in every process of the host). */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** CPU seconds used so far by the server process, this process and the whole machine. */
interface CpuSnapshot {
  server: number;
  bench: number;
  /** Busy seconds of all CPUs of the machine (every process, ours included). */
  machineBusy: number;
  at: number;
}

/** CPU seconds used over a window (see `CpuWindow`). */
export interface CpuUse {
  server: number;
  postgres: number;
  bench: number;
  /** Busy seconds of all CPUs of the machine (every process, ours included). */
  machineBusy: number;
  seconds: number;
}

const CLOCK_TICKS = 100;

/** CPU seconds a process used so far, from /proc (0 when it is gone). */
export function processCpuSeconds(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command (which may hold spaces) start after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The Postgres backends connected to `database` now: pid → CPU seconds. */
function postgresBackends(database: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.startsWith('postgres: ') && cmdline.includes(` ${database} `))
        found.set(Number(entry), processCpuSeconds(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function cpuSnapshot(serverPid: number): CpuSnapshot {
  const usage = process.cpuUsage();
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const ticks = (cpu ?? '').split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy = all but idle and iowait
  const busy = ticks.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return {
    server: processCpuSeconds(serverPid),
    bench: (usage.user + usage.system) / 1e6,
    machineBusy: busy / CLOCK_TICKS,
    at: performance.now() / 1000,
  };
}

/**
 * The CPU the server, the bench database's Postgres backends, this process and the machine use from
 * `start` to `end`. Each backend is followed (read every 500 ms) and counted from its value at the start,
 * or from 0 if it connected later: a sum of the backends alive at both ends would take the whole life's CPU
 * of one that exits in between (the server's pool lets idle connections go) out of the difference.
 */
export class CpuWindow {
  private readonly before: CpuSnapshot;
  private readonly first: Map<number, number>;
  private readonly last: Map<number, number>;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly serverPid: number,
    private readonly database: string,
  ) {
    this.first = postgresBackends(database);
    this.last = new Map(this.first);
    this.timer = setInterval(() => this.sample(), 500);
    this.before = cpuSnapshot(serverPid);
  }

  static start(serverPid: number, database = BENCH_DATABASE): CpuWindow {
    return new CpuWindow(serverPid, database);
  }

  private sample(): void {
    for (const [pid, seconds] of postgresBackends(this.database)) {
      if (!this.first.has(pid)) this.first.set(pid, 0);
      this.last.set(pid, seconds);
    }
  }

  end(): CpuUse {
    const after = cpuSnapshot(this.serverPid);
    clearInterval(this.timer);
    this.sample();
    let postgres = 0;
    for (const [pid, seconds] of this.last) postgres += seconds - (this.first.get(pid) ?? 0);
    return {
      server: after.server - this.before.server,
      postgres,
      bench: after.bench - this.before.bench,
      machineBusy: after.machineBusy - this.before.machineBusy,
      seconds: after.at - this.before.at,
    };
  }
}

/**
 * CPU per request over a window, in ms, and how busy the machine was with other work (other
 * engineers' tests on a shared machine make every figure worse: the detail says so).
 */
export function cpuPerRequest(use: CpuUse, requests: number): string {
  const per = (value: number) => ((value * 1000) / Math.max(1, requests)).toFixed(2);
  const others = Math.max(0, use.machineBusy - use.server - use.postgres - use.bench);
  return (
    `CPU per request: server ${per(use.server)} ms + Postgres ${per(use.postgres)} ms + load generator ${per(use.bench)} ms; ` +
    `other processes used ${(others / use.seconds).toFixed(2)} of ${os.cpus().length} cores meanwhile`
  );
}

/** One message for the bench loopback channel's `POST /api/bench/inbound` (bench/fixtures/loopback-channel). */
export interface BenchInbound {
  id: string;
  identifier: string;
  name: string;
  number: string;
  body: string;
}

/** Hands `messages` to the bench loopback channel's receive; answers each receive()'s outcome and time. */
export async function postBenchInbound(
  url: string,
  token: string,
  batch: { whatsappId: number; queueId?: number; messages: BenchInbound[] },
): Promise<Array<{ id: string; ok: boolean; ms: number }>> {
  const res = await fetch(`${url}/api/bench/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...batch, channel: 'loopback', concurrency: 16 }),
  });
  if (res.status !== 200) throw new Error(`POST /api/bench/inbound: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { results: Array<{ id: string; ok: boolean; ms: number }> }).results;
}

/**
 * Sends `rate` messages a second for `seconds` through the bench loopback channel: a batch every 50 ms, at
 * most 16 batches in flight (a batch that must wait for one counts as `behind`). `message(sequence, tick,
 * index)` makes each message; answers every receive()'s duration, the failures and the time it took.
 */
export async function paceInbound(options: {
  url: string;
  token: string;
  whatsappId: number;
  queueId?: number;
  rate: number;
  seconds: number;
  message(sequence: number, tick: number, index: number): BenchInbound;
}): Promise<{ durations: number[]; failures: number; behind: number; seconds: number }> {
  const perTick = Math.max(1, Math.round(options.rate / 20));
  const ticks = Math.max(1, Math.round(options.seconds * 20));
  const durations: number[] = [];
  let failures = 0;
  let behind = 0;
  const pending = new Set<Promise<void>>();
  const began = performance.now();
  for (let tick = 0; tick < ticks; tick++) {
    const wait = began + tick * 50 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (pending.size >= 16) {
      behind += 1;
      await Promise.race(pending);
    }
    const messages = Array.from({ length: perTick }, (_, index) => options.message(tick * perTick + index, tick, index));
    const work = postBenchInbound(options.url, options.token, {
      whatsappId: options.whatsappId,
      ...(options.queueId === undefined ? {} : { queueId: options.queueId }),
      messages,
    })
      .then((results) => {
        for (const result of results) {
          if (result.ok) durations.push(result.ms);
          else failures += 1;
        }
      })
      .catch(() => {
        failures += perTick;
      });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }
  await Promise.all(pending);
  return { durations, failures, behind, seconds: (performance.now() - began) / 1000 };
}
