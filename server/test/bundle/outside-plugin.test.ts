/**
 * Plugins from outside the repository, run by the production server bundle (`.build/server/main.mjs`, what
 * `npm start` runs) through BALCAO_PLUGINS: the hello fixture, and a plugin `npm create balcao-plugin` writes
 * into a temp folder (its UI remote built), whose menu entry the bundle lists only for a plan with its flag. The bundle carries its own copies of objection and the SDK, while
 * the plugin imports them from its folder's node_modules: its `TenantModel` must still reach the database
 * (docs/architecture.md, "Production start"). Under vitest both sides share one copy, so only a test against
 * the bundle proves it.
 *
 * It also proves the bundle's registry holds the route files features keep in their areas
 * (`server/<area>/routes/`). The bundle is reused when it is newer than its sources (as `npm start` does) and
 * built otherwise.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, deleteRedisKeys } from '@balcao/plugin-sdk/testing';
import { REPO_ROOT } from '@balcao/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../scripts/build-server';
import { newestMtime, serverTarget } from '../../../scripts/lib/build';

const HELLO_PLUGIN = path.join(REPO_ROOT, 'server', 'test', 'fixtures', 'hello-plugin');
const run = promisify(execFile);

/** A plugin as `npm create balcao-plugin` writes it, with its UI remote built; returns its folder. */
async function createdPlugin(scratch: string): Promise<string> {
  const folder = path.join(scratch, 'bundle-notes');
  await run(process.execPath, [path.join(REPO_ROOT, 'tools', 'create-balcao-plugin', 'index.js'), folder], { cwd: REPO_ROOT });
  await run('npm', ['run', 'build:ui'], { cwd: folder });
  return folder;
}

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
  const scratch = mkdtempSync(path.join(tmpdir(), 'balcao-bundle-plugin-'));

  beforeAll(async () => {
    const [bundle, db, port, created] = await Promise.all([
      bundleUpToDate(),
      createTestDatabase(),
      freePort(),
      createdPlugin(scratch),
    ]);
    database = db;
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [bundle], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        JWT_SECRET: 'outside-plugin-test-'.padEnd(48, 'x'),
        FLOWBUILDER_SECRETS_KEY: '0123456789abcdef'.repeat(4),
        WEBHOOKS_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
        AI_SECRETS_KEY: 'fedcba9876543210'.repeat(4),
        DATABASE_URL: db.url,
        REDIS_PREFIX: redisPrefix,
        PORT: String(port),
        HOST: '127.0.0.1',
        BALCAO_PLUGINS: `${HELLO_PLUGIN},${created}`,
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
  }, 180_000);

  afterAll(async () => {
    rmSync(scratch, { recursive: true, force: true });
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    await database?.drop().catch(() => {});
    await deleteRedisKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', redisPrefix);
  });

  async function login(email: string): Promise<string> {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'demo1234' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  }

  it('serves a plugin made by npm create balcao-plugin, in the menu of a plan with its flag only', async () => {
    const acme = await login('admin@acme.test');
    const lite = await login('admin@lite.test');
    const listed = async (token: string) =>
      (
        (await (await fetch(`${url}/api/plugins`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          plugins: Array<{ id: string; remote: string | null; menu: Array<{ key: string }> }>;
        }
      ).plugins;
    expect((await listed(acme)).find((plugin) => plugin.id === 'bundle-notes')).toMatchObject({
      remote: '/plugins/bundle-notes/mf-manifest.json',
      menu: [expect.objectContaining({ key: 'bundle-notes' })],
    });
    expect((await listed(lite)).map((plugin) => plugin.id)).not.toContain('bundle-notes');
    expect((await fetch(`${url}/plugins/bundle-notes/mf-manifest.json`)).status).toBe(200);

    const created = await fetch(`${url}/api/bundle-notes/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'on the bundle' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const refused = await fetch(`${url}/api/bundle-notes/notes`, { headers: { authorization: `Bearer ${lite}` } });
    expect(refused.status).toBe(403);
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

  it("serves the route files the features' areas hold, from the bundle's registry", async () => {
    const headers = { authorization: `Bearer ${await login('admin@acme.test')}` };
    // modules/admin/server/team/routes/users.ts and modules/inbox/server/directory/routes/queues.ts
    for (const route of ['/api/users', '/api/queue']) {
      const res = await fetch(`${url}${route}`, { headers });
      expect(res.status, `${route}: ${await res.clone().text()}`).toBe(200);
    }
  });
});
