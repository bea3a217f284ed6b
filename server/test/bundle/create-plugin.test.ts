/**
 * `npm create balcao-plugin` (tools/create-balcao-plugin; docs/plugin-authoring.md "Your first plugin in a
 * minute"): from the checkout, it writes a plugin into a fresh folder outside the repository; that plugin's
 * own `npm test` is green at once (its tests on the SDK's test kit and walkers), its UI remote builds, and the
 * app loads it the way `BALCAO_PLUGINS` does: its route answers, and its menu entry is listed for a company
 * whose plan has its flag and not for one whose plan hasn't.
 *
 * Nothing is downloaded: the generated folder links the checkout's installation (the tool's default).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { REPO_ROOT } from '@balcao/server';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The environment of a command in the plugin: this run's, without vitest's own markers, and no colours. */
const pluginEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'TEST')),
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

/** Every file the tool wrote (node_modules, its links, left out). */
function writtenFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? writtenFiles(full) : [full];
  });
}

describe('npm create balcao-plugin', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'balcao-create-plugin-'));
  const plugin = path.join(scratch, 'service-notes');
  let t: TestApp | undefined;

  beforeAll(async () => {
    const { stdout } = await run('npm', ['create', 'balcao-plugin', '--', plugin, '--title', 'Service notes'], {
      cwd: REPO_ROOT,
    });
    expect(stdout).toContain(`BALCAO_PLUGINS=${plugin} npm start`);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('writes every part of a plugin, with no placeholder left and the SDK’s peers at their ranges', () => {
    const files = writtenFiles(plugin).map((file) => path.relative(plugin, file));
    expect(files.sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'package.json',
        'rspack.config.ts',
        'server/errors.ts',
        'server/index.ts',
        'server/migrations/0001_notes.ts',
        'server/models/note.ts',
        'server/plugin.test.ts',
        'server/routes/notes.ts',
        'tsconfig.json',
        'ui/NotesPage.tsx',
        'ui/api.ts',
        'ui/index.tsx',
        'ui/locales/en.json',
        'ui/locales/es.json',
        'ui/locales/pt.json',
        'ui/locales/tr.json',
        'vitest.config.ts',
      ].sort(),
    );
    for (const file of writtenFiles(plugin)) expect(readFileSync(file, 'utf8'), file).not.toMatch(/__[A-Z_]+__/);

    const manifest = JSON.parse(readFileSync(path.join(plugin, 'package.json'), 'utf8'));
    expect(manifest.balcao).toMatchObject({
      id: 'service-notes',
      kind: 'plugin',
      planFlag: 'useServiceNotes',
      planFlagLabel: { pt: 'Service notes', en: 'Service notes', es: 'Service notes', tr: 'Service notes' },
    });
    const sdk = JSON.parse(readFileSync(path.join(REPO_ROOT, 'plugin-sdk', 'package.json'), 'utf8'));
    expect(semver.satisfies(sdk.version, manifest.balcao.sdk)).toBe(true);
    expect(manifest.devDependencies['@balcao/plugin-sdk']).toBe(`file:${path.join(REPO_ROOT, 'plugin-sdk')}`);
    // an `npm install` in the plugin installs the peers at versions the SDK accepts
    const off = Object.entries(sdk.peerDependencies as Record<string, string>)
      // an optional peer belongs to a kit the plugin doesn't use yet (browser tests): absent is fine
      .filter(
        ([name]) => name !== '@balcao/server' && (name in manifest.devDependencies || !sdk.peerDependenciesMeta[name]?.optional),
      )
      .filter(([name, range]) => !semver.satisfies(semver.minVersion(manifest.devDependencies[name] ?? '0.0.0') ?? '', range))
      .map(([name]) => name);
    expect(off).toEqual([]);
  });

  it('refuses a bad id and a folder in use, and packs as a publishable package with its template', async () => {
    const tool = path.join(REPO_ROOT, 'tools', 'create-balcao-plugin', 'index.js');
    const refusal = (args: string[]) =>
      run(process.execPath, [tool, ...args], { cwd: scratch }).then(
        () => 'accepted',
        (error: { code?: number; stderr?: string }) => `${error.code}: ${error.stderr?.trim()}`,
      );
    expect(await refusal([path.join(scratch, '9lives')])).toMatch(/^1: create-balcao-plugin: "9lives" is no plugin id/);
    expect(await refusal([plugin])).toBe(`1: create-balcao-plugin: ${plugin} exists and is not empty`);

    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', path.join(REPO_ROOT, 'tools', 'create-balcao-plugin')], {
      cwd: scratch,
    });
    const [packed] = JSON.parse(stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
    const files = packed?.files.map((file) => file.path) ?? [];
    expect(packed?.name).toBe('create-balcao-plugin');
    for (const file of ['index.js', 'template/package.json.tmpl', 'template/gitignore', 'template/server/index.ts']) {
      expect(files).toContain(file);
    }
  });

  it('is green on its first npm test, and its UI remote builds', async () => {
    const tested = await run('npm', ['test'], { cwd: plugin, env: pluginEnv, maxBuffer: 16 * 1024 * 1024 });
    expect(tested.stdout).toMatch(/Tests\s+6 passed \(6\)/);
    await run('npm', ['run', 'build:ui'], { cwd: plugin, env: pluginEnv, maxBuffer: 16 * 1024 * 1024 });
    expect(existsSync(path.join(plugin, 'dist', 'ui', 'mf-manifest.json'))).toBe(true);
  }, 240_000);

  it('is loaded by the app, and in the menu of a plan with its flag only', async () => {
    t = await createTestApp({ plugins: [plugin] });
    const acme = await t.login('admin@acme.test');
    const lite = await t.login('admin@lite.test');
    const listing = async (token: string) =>
      (await t?.inject({ method: 'GET', url: '/api/plugins', token }))?.json() as {
        plugins: Array<{ id: string; remote: string | null; menu: Array<{ key: string; path: string }> }>;
      };

    const created = await t.inject({
      method: 'POST',
      url: '/api/service-notes/notes',
      token: acme.token,
      payload: { text: 'loaded' },
    });
    expect(created.statusCode).toBe(201);
    expect((await listing(acme.token)).plugins.find((p) => p.id === 'service-notes')).toMatchObject({
      remote: '/plugins/service-notes/mf-manifest.json',
      menu: [expect.objectContaining({ key: 'service-notes', path: '/service-notes' })],
    });
    expect((await listing(lite.token)).plugins.map((p) => p.id)).not.toContain('service-notes');
    const refused = await t.inject({ method: 'GET', url: '/api/service-notes/notes', token: lite.token });
    expect(refused.statusCode).toBe(403);
  }, 120_000);
});
