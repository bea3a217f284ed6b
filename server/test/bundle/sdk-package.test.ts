/**
 * `@balcao/plugin-sdk` as a package (docs/plugin-authoring.md "The SDK as a package"): one version, the
 * contract's (`SDK_VERSION`); every package its sources import declared as a peer dependency at a range the
 * repository's own installation satisfies, so a plugin shares the host's copies; and a tarball from
 * `npm pack` that installs in a fresh folder outside the repository and imports from there, both the way the
 * core imports an outside plugin (tsx) and the way a plugin's tests do (vitest).
 *
 * The install is kept cheap: offline, no peers fetched (`--legacy-peer-deps`), and the fresh folder's parent
 * holds a link to the repository's node_modules, so the peers resolve to the host's copies as they would
 * beside a host and nothing is downloaded.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SDK_VERSION } from '@balcao/plugin-sdk/shared';
import { REPO_ROOT } from '@balcao/server';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SDK_ROOT = path.join(REPO_ROOT, 'plugin-sdk');

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  exports: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const sdkPackage = JSON.parse(readFileSync(path.join(SDK_ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The SDK's source files that ship (tests stay in the repository). */
function shippedSources(dir = path.join(SDK_ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return shippedSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The package a bare import specifier names (`antd/es/input` → `antd`, `@rspack/core` → `@rspack/core`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The version the repository runs (the host's and the core's), found from the SDK's folder as Node would. */
function repositoryVersion(name: string): string {
  for (const root of [SDK_ROOT, REPO_ROOT]) {
    const file = path.join(root, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  throw new Error(`${name} is not installed in the repository`);
}

describe('the SDK package', () => {
  it('has one version, the contract’s, and is publishable', () => {
    expect(sdkPackage.version).toBe(SDK_VERSION);
    expect(sdkPackage.private).toBeUndefined();
    expect(sdkPackage.dependencies ?? {}).toEqual({});
    const changelog = readFileSync(path.join(SDK_ROOT, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`## ${SDK_VERSION}`);
  });

  it('declares every package its sources import as a peer, at a range the host’s installation satisfies', () => {
    const imported = new Set<string>();
    for (const file of shippedSources()) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)*)'/g)) {
        const specifier = match[1] ?? '';
        if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
        const name = packageOf(specifier);
        if (name !== sdkPackage.name) imported.add(name);
      }
    }
    const peers = sdkPackage.peerDependencies;
    expect([...imported].filter((name) => !(name in peers)).sort()).toEqual([]);
    expect(Object.keys(peers).filter((name) => !imported.has(name) && name !== 'react-dom')).toEqual([]);
    const unsatisfied = Object.entries(peers)
      .map(([name, range]) => ({ name, range, installed: repositoryVersion(name) }))
      .filter(({ range, installed }) => !semver.satisfies(installed, range));
    expect(unsatisfied).toEqual([]);
  });

  describe('packed and installed in a fresh folder outside the repository', () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'balcao-sdk-pack-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('installs from its tarball and imports there, through tsx and under vitest, with the tests left out', async () => {
      const { stdout } = await run('npm', ['pack', SDK_ROOT, '--pack-destination', scratch, '--json'], { cwd: scratch });
      const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
      if (!packed) throw new Error('npm pack reported no tarball');
      const files = packed.files.map((file) => file.path);
      expect(files).toContain('CHANGELOG.md');
      expect(files).toContain('src/server/index.ts');
      expect(files.filter((file) => /\.test\.tsx?$/.test(file))).toEqual([]);

      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
      const app = path.join(scratch, 'app');
      await run('mkdir', [app]);
      writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
      await run(
        'npm',
        [
          'install',
          path.join(scratch, packed.filename),
          '--offline',
          '--legacy-peer-deps',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '--no-package-lock',
        ],
        { cwd: app },
      );
      const installed = path.join(app, 'node_modules', '@balcao', 'plugin-sdk');
      expect(existsSync(path.join(installed, 'src', 'server', 'index.ts'))).toBe(true);

      // what the core does with an outside plugin: import it from disk through tsx
      const probe = [
        "const shared = await import('@balcao/plugin-sdk/shared');",
        "const server = await import('@balcao/plugin-sdk/server');",
        "const rspack = await import('@balcao/plugin-sdk/rspack');",
        'console.log(JSON.stringify({ version: shared.SDK_VERSION, definePlugin: typeof server.definePlugin,',
        "  preset: typeof rspack.createRemoteConfig, from: import.meta.resolve('@balcao/plugin-sdk/server') }));",
      ].join('\n');
      const imported = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: app });
      expect(JSON.parse(imported.stdout)).toEqual({
        version: SDK_VERSION,
        definePlugin: 'function',
        preset: 'function',
        from: `file://${path.join(installed, 'src', 'server', 'index.ts')}`,
      });

      // what a plugin's tests do: vitest, which compiles the installed SDK's TypeScript like the test's own
      writeFileSync(
        path.join(app, 'probe.test.ts'),
        [
          "import { SDK_VERSION } from '@balcao/plugin-sdk/shared';",
          "import { definePlugin, Type } from '@balcao/plugin-sdk/server';",
          "import { expect, it } from 'vitest';",
          "it('imports the installed SDK', () => {",
          `  expect(SDK_VERSION).toBe('${SDK_VERSION}');`,
          "  expect(definePlugin({ id: 'probe' }).id).toBe('probe');",
          "  expect(Type.Integer().type).toBe('integer');",
          "  expect(import.meta.resolve('@balcao/plugin-sdk/server')).toContain('/app/node_modules/@balcao/plugin-sdk/');",
          '});',
        ].join('\n'),
      );
      const vitest = await run(path.join(scratch, 'node_modules', '.bin', 'vitest'), ['run'], {
        cwd: app,
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
          NO_COLOR: '1',
          FORCE_COLOR: '0',
        },
      });
      expect(vitest.stdout).toMatch(/Tests\s+1 passed \(1\)/);
    }, 90_000);
  });
});
