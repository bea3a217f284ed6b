/** Helpers shared by the benchmarks: a dedicated database, a server process, timing and reporting. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function benchDatabaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${BENCH_DATABASE}`;
  return url.toString();
}

/** Creates (if needed), migrates and seeds the bench database, so measured starts find migrations applied. */
export async function prepareDatabase(): Promise<void> {
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
  const child = spawn(process.execPath, [path.join(REPO_ROOT, '.build', 'server', 'main.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
      DATABASE_URL: benchDatabaseUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: 'balcao-bench',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
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
    if (Date.now() > deadline) throw new Error('server not ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - began;
  return {
    child,
    url,
    readyMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
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

export async function login(url: string, email = DEMO_LOGINS[1].email): Promise<string> {
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
