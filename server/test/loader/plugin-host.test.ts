/**
 * A third-party plugin from a folder outside the repository (BALCAO_PLUGINS, here through
 * `createTestApp({ plugins })`) loads end to end: manifest, dependency order, migration in its own table,
 * routes with the plan gate, job, event handler, permission, and its built UI listed and served.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError, runInTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationOwners } from '../../src/app';
import { loadConfig, REPO_ROOT } from '../../src/config';
import { migrateAll, migrationsTable } from '../../src/db/migrator';

const here = path.dirname(fileURLToPath(import.meta.url));
const folder = mkdtempSync(path.join(tmpdir(), 'balcao-extra-'));
const hello = path.join(folder, 'hello');
const bare = path.join(folder, 'bare');

const MF_MANIFEST = { id: 'balcao_hello', name: 'balcao_hello', metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } } };
const REMOTE_ENTRY = 'window.balcao_hello = { get: () => null, init: () => null };\n';
const CHUNK = 'console.log("hello chunk");\n';

/** Copies the fixture plugin's server side out of the repository and gives it a small built UI. */
function preparePlugins(): void {
  const source = path.resolve(here, '../fixtures/hello-plugin');
  mkdirSync(hello);
  cpSync(path.join(source, 'package.json'), path.join(hello, 'package.json'));
  cpSync(path.join(source, 'server'), path.join(hello, 'server'), { recursive: true });
  // the plugin resolves @balcao/plugin-sdk like an installed third-party package would
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  const dist = path.join(hello, 'dist', 'ui');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'mf-manifest.json'), JSON.stringify(MF_MANIFEST));
  writeFileSync(path.join(dist, 'remoteEntry.js'), REMOTE_ENTRY);
  writeFileSync(path.join(dist, 'chunk.0123abcd.js'), CHUNK);
  // a plugin that declares a UI but has none built, and depends on hello (it sorts before it by name);
  // its migration references hello's table, so it can only run after hello's
  mkdirSync(path.join(bare, 'server', 'migrations'), { recursive: true });
  writeFileSync(
    path.join(bare, 'server', 'migrations', '0001_bare_links.ts'),
    [
      "import type { Knex } from 'knex';",
      'export async function up(knex: Knex): Promise<void> {',
      "  await knex.schema.createTable('bareLinks', (t) => {",
      "    t.increments('id');",
      "    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');",
      "    t.integer('helloNoteId').notNullable().references('helloNotes.id').onDelete('CASCADE');",
      '  });',
      '}',
    ].join('\n'),
  );
  writeFileSync(
    path.join(bare, 'package.json'),
    JSON.stringify({
      name: '@third-party/bare',
      version: '0.1.0',
      balcao: {
        id: 'bare',
        kind: 'plugin',
        sdk: '^1.0.0',
        dependsOn: ['hello'],
        ui: { entry: './ui/index.tsx', routes: [{ path: '/bare' }], menu: [] },
      },
    }),
  );
}

let t: TestApp;
let acme: TestSession;
let lite: TestSession;

beforeAll(async () => {
  preparePlugins();
  t = await createTestApp({ plugins: [bare, hello] });
  [acme, lite] = await Promise.all([t.login('admin@acme.test'), t.login('admin@lite.test')]);
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

const plugin = (id: string) => {
  const found = t.balcao.plugins.find((p) => p.discovered.manifest.id === id);
  if (!found) throw new Error(`${id} not loaded`);
  return found;
};

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a plugin from an extra folder', () => {
  it('is named by BALCAO_PLUGINS (comma-separated, paths or package names)', () => {
    expect(loadConfig({ NODE_ENV: 'test', BALCAO_PLUGINS: ` ${hello} , @acme/crm,` }).extraPlugins).toEqual([hello, '@acme/crm']);
    expect(t.config.extraPlugins).toEqual([bare, hello]);
  });

  it('loads after what it depends on, from its own folder', () => {
    const ids = t.balcao.plugins.map((p) => p.discovered.manifest.id);
    expect(ids.indexOf('hello')).toBeLessThan(ids.indexOf('bare'));
    expect(plugin('hello').discovered).toMatchObject({ origin: 'extra', root: hello, version: '1.2.3' });
    expect(plugin('bare').definition).toEqual({ id: 'bare' });
  });

  it('migrates into its own migrations table, once', async () => {
    const knex = t.balcao.core.knex;
    expect(migrationsTable('hello')).toBe('knex_migrations_hello');
    const applied = await knex('knex_migrations_hello').select('name');
    expect(applied.map((row: { name: string }) => row.name)).toEqual(['0001_hello_notes']);
    expect(await knex.schema.hasTable('hello_notes')).toBe(true);
    // its migration is not in the core's table, nor does a second run apply anything
    const core = await knex(migrationsTable('core')).select('name');
    expect(core.map((row: { name: string }) => row.name)).not.toContain('0001_hello_notes');
    expect(await migrateAll(knex, migrationOwners(t.balcao.plugins.map((p) => p.discovered)))).toEqual([]);
  });

  it('migrates after what it depends on, each feature in its own table', async () => {
    const knex = t.balcao.core.knex;
    const owners = migrationOwners(t.balcao.plugins.map((p) => p.discovered)).map((owner) => owner.id);
    expect(owners[0]).toBe('core');
    expect(owners.indexOf('hello')).toBeLessThan(owners.indexOf('bare'));
    // bare's migration references helloNotes: it ran, so hello's ran first
    expect((await knex('knex_migrations_bare').select('name')).map((row: { name: string }) => row.name)).toEqual([
      '0001_bare_links',
    ]);
    const references = await knex.raw(
      `select ccu.table_name as target from information_schema.table_constraints tc
       join information_schema.constraint_column_usage ccu using (constraint_name)
       where tc.table_name = 'bare_links' and tc.constraint_type = 'FOREIGN KEY' order by 1`,
    );
    expect(references.rows.map((row: { target: string }) => row.target)).toEqual(['companies', 'hello_notes']);
  });

  it('merges its permission into the table', () => {
    expect(t.balcao.core.permissions['hello:shout']).toEqual(['admin']);
    const { ctx } = plugin('hello');
    expect(ctx.access.can(acme.user, 'hello:shout')).toBe(true);
    expect(ctx.access.can({ ...acme.user, profile: 'user' }, 'hello:shout')).toBe(false);
  });

  it('serves its routes; its job runs and its event handler reacts, in the company scope', async () => {
    const created = await t.inject({ method: 'POST', url: '/api/hello-notes', token: acme.token, payload: { text: 'hi there' } });
    expect(created.statusCode).toBe(201);
    const note = created.json() as { id: number; text: string; shouted: boolean };
    expect(note).toMatchObject({ text: 'hi there', shouted: false });

    const read = () => t.inject({ method: 'GET', url: `/api/hello-notes/${note.id}`, token: acme.token }).then((r) => r.json());
    // POST enqueued `shout` (delayed 50 ms); its handler marks the note and publishes hello.noted, whose handler appends
    const final = await eventually(read, (value) => value.shouted === true && String(value.text).endsWith('(noted)'));
    expect(final).toEqual({ id: note.id, text: 'hi there (noted)', shouted: true });

    const list = await t.inject({ method: 'GET', url: '/api/hello-notes?searchParam=there', token: acme.token });
    expect(list.json()).toEqual({ notes: [final] });
  });

  it('is closed to companies whose plan lacks its flag: routes, jobs and event handlers', async () => {
    const refused = await t.inject({ method: 'GET', url: '/api/hello-notes', token: lite.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });

    const { ctx } = plugin('hello');
    const liteId = t.demo.companies.lite;
    await expect(ctx.jobs.enqueue('shout', { noteId: 1 }, { companyId: liteId })).rejects.toThrow(AppError);
    await expect(ctx.jobs.enqueue('shout', { noteId: 1 }, { companyId: liteId })).rejects.toThrow('ERR_PLAN_FEATURE_DISABLED');

    // a note Lite somehow holds is left alone by the handler, which the plan gate skips
    const [row] = await t.balcao.core.knex('helloNotes').insert({ companyId: liteId, text: 'lite note' }).returning('id');
    await runInTenant({ companyId: liteId }, () =>
      t.balcao.core.events.publish('hello.noted', { companyId: liteId, noteId: row.id }),
    );
    const after = await t.balcao.core.knex('helloNotes').where({ id: row.id }).first('text');
    expect(after.text).toBe('lite note');
  });

  it('is listed to companies whose plan has its flag, with its remote when its UI is built', async () => {
    const listed = (await t.inject({ method: 'GET', url: '/api/plugins', token: acme.token })).json().plugins;
    expect(listed).toContainEqual({
      id: 'hello',
      version: '1.2.3',
      planFlag: 'useHello',
      remote: '/plugins/hello/mf-manifest.json',
      remoteName: 'balcao_hello',
      menu: [expect.objectContaining({ key: 'hello', path: '/hello', group: 'main' })],
      routes: [{ path: '/hello' }],
      slots: [],
    });
    expect(listed).toContainEqual({
      id: 'bare',
      version: '0.1.0',
      planFlag: null,
      remote: null,
      remoteName: null,
      menu: [],
      routes: [],
      slots: [],
    });

    const forLite = (await t.inject({ method: 'GET', url: '/api/plugins', token: lite.token })).json().plugins;
    expect(forLite.map((p: { id: string }) => p.id)).toContain('bare');
    expect(forLite.map((p: { id: string }) => p.id)).not.toContain('hello');
  });

  it('has its built UI served under /plugins/<id>/, and nothing else', async () => {
    const manifest = await t.inject({ method: 'GET', url: '/plugins/hello/mf-manifest.json' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.json()).toEqual(MF_MANIFEST);

    const entry = await t.inject({ method: 'GET', url: '/plugins/hello/remoteEntry.js' });
    expect(entry.statusCode).toBe(200);
    expect(entry.headers['content-type']).toMatch(/javascript/);
    expect(entry.body).toBe(REMOTE_ENTRY);

    const chunk = await t.inject({ method: 'GET', url: '/plugins/hello/chunk.0123abcd.js' });
    expect(chunk.body).toBe(CHUNK);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    for (const url of [
      '/plugins/hello/missing.js',
      '/plugins/bare/mf-manifest.json',
      '/plugins/hello/../package.json',
      '/plugins/hello/%2e%2e/package.json',
      '/plugins/hello/..%2f..%2fpackage.json',
    ]) {
      const response = await t.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.body, url).not.toContain('"balcao"');
    }
  });
});
