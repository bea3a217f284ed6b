/**
 * What each feature gets from the loader besides its routes: its own encapsulated Fastify context (its
 * hooks and decorators reach no other feature and no core route), its own Redis cache namespace, and
 * session contributions that, like its routes, stop at companies whose plan lacks its flag.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config';

const here = path.dirname(fileURLToPath(import.meta.url));
const folder = mkdtempSync(path.join(tmpdir(), 'balcao-context-'));
const HELLO = path.resolve(here, '../fixtures/hello-plugin');

/** A plugin written for this test: one route, a hook and a decorator, a session field. */
const HOOKY_ENTRY = `
import { access, definePlugin, NoQuery, Type } from '@balcao/plugin-sdk/server';

export default definePlugin({
  id: 'hooky',
  session: async (user) => ({ hookyLanes: [user.id] }),
  register(app) {
    app.decorateRequest('hooky', 'mine');
    app.addHook('onSend', async (_request, reply) => {
      reply.header('x-hooky', 'seen');
    });
    app.get(
      '/hooky-ping',
      { schema: { querystring: NoQuery, response: { 200: Type.Object({ decorated: Type.String() }) } }, config: access.authenticated },
      async (request) => ({ decorated: String((request as unknown as { hooky?: string }).hooky) }),
    );
  },
});
`;

function writeHooky(): string {
  const root = path.join(folder, 'hooky');
  mkdirSync(path.join(root, 'server'), { recursive: true });
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({
      name: 'hooky',
      version: '1.0.0',
      type: 'module',
      balcao: { id: 'hooky', kind: 'plugin', sdk: '^1.0.0', planFlag: 'useKanban' },
    }),
  );
  writeFileSync(path.join(root, 'server', 'index.ts'), HOOKY_ENTRY);
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  return root;
}

let t: TestApp;
let acme: TestSession;
let lite: TestSession;

beforeAll(async () => {
  t = await createTestApp({ plugins: [HELLO, writeHooky()] });
  [acme, lite] = await Promise.all([t.login('admin@acme.test'), t.login('admin@lite.test')]);
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

const ctxOf = (id: string) => {
  const found = t.balcao.plugins.find((p) => p.discovered.manifest.id === id);
  if (!found) throw new Error(`${id} not loaded`);
  return found.ctx;
};

describe("a feature's own Fastify context", () => {
  it('keeps its hooks and decorators to its own routes', async () => {
    const own = await t.inject({ method: 'GET', url: '/api/hooky-ping', token: acme.token });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ decorated: 'mine' });
    expect(own.headers['x-hooky']).toBe('seen');

    for (const url of ['/api/hello-notes', '/api/auth/me', '/api/version', '/api/plugins']) {
      const other = await t.inject({ method: 'GET', url, token: acme.token });
      expect(other.statusCode, url).toBe(200);
      expect(other.headers['x-hooky'], url).toBeUndefined();
    }
  });
});

describe('session contributions', () => {
  it("are added for a company whose plan has the plugin's flag, and not for one without", async () => {
    const me = (session: TestSession) =>
      t.inject({ method: 'GET', url: '/api/auth/me', token: session.token }).then((r) => r.json());
    expect((await me(acme)).hookyLanes).toEqual([acme.user.id]);
    expect(await me(lite)).not.toHaveProperty('hookyLanes');
    expect(lite.user).not.toHaveProperty('hookyLanes');
  });
});

describe('ctx.cache', () => {
  it("is one Redis namespace per feature, under the app's prefix, with an optional time to live", async () => {
    const hooky = ctxOf('hooky').cache;
    const hello = ctxOf('hello').cache;
    await hooky.set('board', 'hooky value');
    await hello.set('board', 'hello value');
    expect(await hooky.get('board')).toBe('hooky value');
    expect(await hello.get('board')).toBe('hello value');
    expect(await t.balcao.core.redis.get(`${t.config.redisPrefix}:cache:hooky:board`)).toBe('hooky value');

    await hooky.del('board');
    expect(await hooky.get('board')).toBeNull();
    expect(await hello.get('board')).toBe('hello value');

    await hooky.set('brief', 'soon gone', 50);
    expect(await hooky.get('brief')).toBe('soon gone');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await hooky.get('brief')).toBeNull();
  });
});
