/**
 * "Builds what is missing": the browser shell and every plugin's remote are built when their output is
 * absent or older than their sources, so a fresh clone starts with one command and a developer's
 * edits are picked up on the next start. A plugin folder named in BALCAO_PLUGINS gets the same: its own
 * `npm run build:ui` when its remote is missing or older than its `ui/`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time under `target` (0 when absent), skipping node_modules and dist. */
export function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(target)) {
    if (name === 'node_modules' || name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, name)));
  }
  return newest;
}

function subfolders(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .map((name) => path.join(dir, name))
        .filter((p) => statSync(p).isDirectory())
    : [];
}

/** The build outputs `npm start` needs and the sources each depends on. */
export function buildTargets(root: string): Array<{ output: string; sources: string[] }> {
  const shared = [
    path.join(root, 'plugin-sdk', 'src', 'ui'),
    path.join(root, 'plugin-sdk', 'src', 'shared'),
    path.join(root, 'rspack.config.ts'),
  ];
  const targets = [
    {
      output: path.join(root, 'host', 'dist', 'index.html'),
      sources: [
        path.join(root, 'host', 'src'),
        ...subfolders(path.join(root, 'modules')).map((m) => path.join(m, 'ui')),
        ...shared,
      ],
    },
  ];
  for (const plugin of subfolders(path.join(root, 'plugins'))) {
    const manifestFile = path.join(plugin, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { balcao?: { id?: string; ui?: unknown } };
    if (!manifest.balcao?.ui) continue;
    // a plugin's `shared/` holds code its UI and its widget both import
    const pluginShared = path.join(plugin, 'shared');
    targets.push({
      output: path.join(plugin, 'dist', 'ui', 'mf-manifest.json'),
      sources: [path.join(plugin, 'ui'), pluginShared, ...shared],
    });
    // the standalone widget bundle (rspack.config.ts widgetConfigs)
    const widget = path.join(plugin, 'widget');
    if (existsSync(path.join(widget, 'index.ts'))) {
      targets.push({
        output: path.join(plugin, 'dist', 'widget', `${manifest.balcao.id}-widget.js`),
        sources: [widget, pluginShared, path.join(root, 'rspack.config.ts')],
      });
    }
  }
  return targets;
}

/** The server bundle and what it is built from. */
export function serverTarget(root: string): { output: string; sources: string[] } {
  const features = [...subfolders(path.join(root, 'modules')), ...subfolders(path.join(root, 'plugins'))];
  return {
    output: path.join(root, '.build', 'server', 'main.mjs'),
    sources: [
      path.join(root, 'server', 'src'),
      path.join(root, 'plugin-sdk', 'src', 'server'),
      path.join(root, 'plugin-sdk', 'src', 'shared'),
      path.join(root, 'package-lock.json'),
      path.join(root, 'scripts', 'build-server.ts'),
      ...features.flatMap((feature) => [path.join(feature, 'server'), path.join(feature, 'package.json')]),
    ],
  };
}

/** A plugin folder of BALCAO_PLUGINS with a UI and its own `build:ui` script, and the remote it builds. */
export interface OutsideUiTarget {
  folder: string;
  output: string;
  sources: string[];
}

/**
 * The plugin folders of BALCAO_PLUGINS whose UI `npm start` can build: folders (not installed packages,
 * which ship their build) whose manifest declares a UI and whose package.json has a `build:ui` script.
 */
export function outsideUiTargets(root: string, env: NodeJS.ProcessEnv = process.env): OutsideUiTarget[] {
  const targets: OutsideUiTarget[] = [];
  for (const entry of (env.BALCAO_PLUGINS ?? '').split(',').map((item) => item.trim())) {
    if (!entry) continue;
    const folder = path.resolve(root, entry);
    const manifestFile = path.join(folder, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      balcao?: { ui?: unknown };
      scripts?: Record<string, string>;
    };
    if (!manifest.balcao?.ui || !manifest.scripts?.['build:ui']) continue;
    targets.push({
      folder,
      output: path.join(folder, 'dist', 'ui', 'mf-manifest.json'),
      sources: [path.join(folder, 'ui'), manifestFile, ...['shared', 'rspack.config.ts'].map((name) => path.join(folder, name))],
    });
  }
  return targets;
}

function isStale({ output, sources }: { output: string; sources: string[] }): boolean {
  const built = newestMtime(output);
  return built === 0 || sources.some((source) => newestMtime(source) > built);
}

/**
 * Builds the UI (`npm run build:ui`), the UI of BALCAO_PLUGINS' folders and the server bundle when missing
 * or stale; returns what it built.
 */
export async function buildIfNeeded(
  root: string,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const built: string[] = [];
  const staleUi = buildTargets(root).filter(isStale);
  if (staleUi.length > 0) {
    log(`Building the UI (${staleUi.map((s) => path.relative(root, s.output)).join(', ')} missing or older than their sources)…`);
    const result = spawnSync('npm', ['run', 'build:ui', '--silent'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error('the UI build failed (see above)');
    built.push('ui');
  }
  const staleOutside = outsideUiTargets(root, env).filter(isStale);
  for (const target of staleOutside) {
    log(`Building the UI of ${target.folder} (its dist/ui is missing or older than its sources)…`);
    const result = spawnSync('npm', ['run', 'build:ui', '--silent'], { cwd: target.folder, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`the UI build of ${target.folder} failed (see above)`);
    built.push(target.folder);
  }
  if (staleOutside.length > 0) {
    // the shell serves the precompressed files when they are there: refresh them for the folders just built
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'precompress.ts')], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error("precompressing the plugins' UI failed (see above)");
  }
  if (isStale(serverTarget(root))) {
    log('Bundling the server (.build/server/main.mjs)…');
    const { buildServer } = await import('../build-server');
    await buildServer();
    built.push('server');
  }
  return built;
}
