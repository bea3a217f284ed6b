/**
 * A plugin from outside the repository, run by the production server bundle (`.build/server/main.mjs`, what
 * `npm start` runs) through BALCAO_PLUGINS. The bundle carries its own copies of objection and the SDK, while
 * the plugin imports them from its folder's node_modules: its `TenantModel` must still reach the database
 * (docs/architecture.md, "Production start"). Under vitest both sides share one copy, so only a test against
 * the bundle proves it.
 *
 * The bundle is reused when it is newer than its sources (as `npm start` does) and built otherwise.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { createTestDatabase, deleteRedisKeys } from '@balcao/plugin-sdk/testing';
import { REPO_ROOT } from '@balcao/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../scripts/build-server';
import { newestMtime, serverTarget } from '../../../scripts/lib/build';

const HELLO_PLUGIN = path.join(REPO_ROOT, 'server', 'test', 'fixtures', 'hello-plugin');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function bundleUpToDate(): Promise<string> {
  const target = serverTarget(REPO_ROOT);
  const built = newestMtime(target.output);
  if (built === 0 || target.sources.some((source) => newestMtime(source) > built)) await buildServer();
  return target.output;
}

describe('an outside plugin on the production bundle', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let child: ChildProcess;
  let url: string;
  let output = '';
  const redisPrefix = `bb${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    const [bundle, db, port] = await Promise.all([bundleUpToDate(), createTestDatabase(), freePort()]);
    database = db;
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [bundle], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        JWT_SECRET: 'outside-plugin-test-'.padEnd(48, 'x'),
        DATABASE_URL: db.url,
        REDIS_PREFIX: redisPrefix,
        PORT: String(port),
        HOST: '127.0.0.1',
        BALCAO_PLUGINS: HELLO_PLUGIN,
        SEED_DEMO: 'true',
        PASSWORD_HASH_COST: '1024',
        STORAGE_DIR: path.join(process.env.TMPDIR ?? '/tmp', 'balcao-test-storage', redisPrefix),
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + 50_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the bundled server exited with ${child.exitCode}:\n${output}`);
      const ready = await fetch(`${url}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the bundled server was not ready within 50 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    await database?.drop().catch(() => {});
    await deleteRedisKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', redisPrefix);
  });

  it("answers the plugin's TenantModel routes with the company's rows", async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@acme.test', password: 'demo1234' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const created = await fetch(`${url}/api/hello-notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'from outside' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const note = (await created.json()) as { id: number; text: string };

    const list = await fetch(`${url}/api/hello-notes`, { headers: { authorization: headers.authorization } });
    expect(list.status, await list.clone().text()).toBe(200);
    const { notes } = (await list.json()) as { notes: Array<{ id: number; text: string }> };
    expect(notes).toEqual([expect.objectContaining({ id: note.id, text: expect.stringContaining('from outside') })]);
  });
});
