/**
 * The browser tests need the built host and the fixture plugin's remote. They are built (with
 * `npm run build:ui`, so precompressed like production) when missing or older than their sources.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestMtime } from '../scripts/lib/build';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURE_PLUGIN = 'server/test/fixtures/hello-plugin';

/** Sources the host and the fixture remote are built from. */
function sources(): string[] {
  const modules = path.join(REPO_ROOT, 'modules');
  // a module's UI bundles its shared/ folder too (types, constants, texts the server shares)
  const moduleUis = existsSync(modules)
    ? readdirSync(modules).flatMap((name) => [path.join(modules, name, 'ui'), path.join(modules, name, 'shared')])
    : [];
  return [
    path.join(REPO_ROOT, 'host', 'src'),
    path.join(REPO_ROOT, 'plugin-sdk', 'src', 'ui'),
    path.join(REPO_ROOT, 'plugin-sdk', 'src', 'shared'),
    path.join(REPO_ROOT, 'plugin-sdk', 'src', 'rspack'),
    path.join(REPO_ROOT, 'rspack.config.ts'),
    path.join(REPO_ROOT, 'scripts', 'precompress.ts'),
    path.join(REPO_ROOT, 'package-lock.json'),
    path.join(REPO_ROOT, FIXTURE_PLUGIN, 'ui'),
    path.join(REPO_ROOT, FIXTURE_PLUGIN, 'package.json'),
    ...moduleUis,
  ];
}

/** Outputs that must exist and be newer than every source. */
function outputs(): string[] {
  return [
    path.join(REPO_ROOT, 'host', 'dist', 'index.html'),
    path.join(REPO_ROOT, FIXTURE_PLUGIN, 'dist', 'ui', 'mf-manifest.json'),
  ];
}

/** Builds the host and the fixture remote unless they are up to date; returns whether it built. */
export function buildForBrowserTests(): boolean {
  const built = Math.min(...outputs().map((output) => (existsSync(output) ? statSync(output).mtimeMs : 0)));
  const newestSource = Math.max(...sources().map(newestMtime));
  if (built > 0 && built >= newestSource) return false;
  const result = spawnSync('npm', ['run', 'build:ui'], {
    cwd: REPO_ROOT,
    env: { ...process.env, BALCAO_PLUGINS: FIXTURE_PLUGIN, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`npm run build:ui failed (exit ${result.status})`);
  return true;
}
