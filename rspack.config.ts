/**
 * One multi-compiler build: the host shell, and one federated remote per plugin with a UI (`balcao.ui`
 * in its package.json) found in `plugins/*` or in the folders of `BALCAO_PLUGINS` (comma-separated,
 * how tests add the fixture plugin). Standalone widget bundles join here in their own issue.
 *
 *   npm run build:ui                                            # production
 *   BALCAO_PLUGINS=server/test/fixtures/hello-plugin npm run build:ui
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BuildMode,
  createRemoteConfig,
  defineGlobals,
  type FeatureManifest,
  moduleRules,
  RESOLVE,
  readFeatureManifest,
  sharedSingletons,
} from '@balcao/plugin-sdk/rspack';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Configuration, rspack } from '@rspack/core';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const HOST_ROOT = path.join(ROOT, 'host');

/** Build variables the browser code reads (`__BALCAO_API_BASE__`). */
function buildGlobals(): Record<string, string> {
  return { __BALCAO_API_BASE__: process.env.BALCAO_API_BASE ?? '/api' };
}

/** Plugin folders: every `plugins/*` with a manifest, then the extra folders of `BALCAO_PLUGINS`. */
export function pluginFeatures(env: NodeJS.ProcessEnv = process.env): FeatureManifest[] {
  const pluginsDir = path.join(ROOT, 'plugins');
  const roots = existsSync(pluginsDir)
    ? readdirSync(pluginsDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(pluginsDir, entry.name))
        .sort()
    : [];
  const extra = (env.BALCAO_PLUGINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => path.resolve(ROOT, entry));
  const seen = new Set<string>();
  const features: FeatureManifest[] = [];
  for (const root of [...roots, ...extra]) {
    const feature = readFeatureManifest(root);
    if (feature?.kind !== 'plugin' || seen.has(feature.id)) continue;
    seen.add(feature.id);
    features.push(feature);
  }
  return features;
}

/**
 * The folder the host scans for module UIs. In a clone without any module yet, `modules/` may not exist
 * (git keeps no empty folders): an empty stand-in keeps the scan valid.
 */
function modulesRoot(): string {
  const modulesDir = path.join(ROOT, 'modules');
  if (existsSync(modulesDir)) return modulesDir;
  const empty = path.join(tmpdir(), 'balcao-no-modules');
  mkdirSync(empty, { recursive: true });
  return empty;
}

/**
 * The icon set's definitions (`@ant-design/icons-svg/es/asn/*.js`, data modules without imports) and a
 * tag that changes with its version. The host copies them to `assets/icons/<Name>.<tag>.js`, where the
 * menu imports the icons it shows (host/src/frame/menu/icon-loader.ts): as files of their own rather than
 * bundler chunks, they add nothing to the chunk map the login page downloads.
 */
function iconDefinitions(): { dir: string; tag: string } {
  const manifest = createRequire(path.join(HOST_ROOT, 'package.json')).resolve('@ant-design/icons-svg/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const tag = createHash('sha256').update(`icons-svg@${version}`).digest('hex').slice(0, 10);
  return { dir: path.join(path.dirname(manifest), 'es', 'asn'), tag };
}

/** The host shell: `host/dist/` with index.html, public path `/`, every shared singleton provided. */
export function hostConfig(mode: BuildMode): Configuration {
  const icons = iconDefinitions();
  return {
    name: 'host',
    mode,
    context: HOST_ROOT,
    entry: { main: './src/index.ts' },
    target: 'web',
    devtool: mode === 'production' ? false : 'cheap-module-source-map',
    output: {
      path: path.join(HOST_ROOT, 'dist'),
      publicPath: '/',
      uniqueName: 'balcao_host',
      filename: 'assets/[name].[contenthash:10].js',
      chunkFilename: 'assets/[name].[contenthash:10].js',
      cssFilename: 'assets/[name].[contenthash:10].css',
      cssChunkFilename: 'assets/[name].[contenthash:10].css',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      ...RESOLVE,
      alias: {
        '@balcao-modules': modulesRoot(),
        // the real package behind the host's curated shared `react-router` (host/src/shared-modules)
        '@balcao/react-router-impl$': 'react-router',
      },
    },
    module: { rules: moduleRules(mode) },
    performance: false,
    optimization: { splitChunks: { chunks: 'async' } },
    plugins: [
      new rspack.HtmlRspackPlugin({ template: path.join(HOST_ROOT, 'src', 'index.html'), scriptLoading: 'module' }),
      defineGlobals({ ...buildGlobals(), __BALCAO_ICON_TAG__: icons.tag }),
      new rspack.CopyRspackPlugin({
        patterns: [{ from: '*.js', context: icons.dir, to: `assets/icons/[name].${icons.tag}[ext]` }],
      }),
      new ModuleFederationPlugin({
        name: 'balcao_host',
        remotes: {},
        shared: sharedSingletons('host', HOST_ROOT, {
          'react-router': path.join(HOST_ROOT, 'src', 'shared-modules', 'react-router.ts'),
        }),
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
        experiments: { optimization: { target: 'web' } },
      }),
    ],
  };
}

/** One remote per plugin UI. */
export function remoteConfigs(mode: BuildMode, env: NodeJS.ProcessEnv = process.env): Configuration[] {
  return pluginFeatures(env)
    .filter((feature) => feature.ui !== undefined)
    .map((feature) => createRemoteConfig(feature, { mode, define: buildGlobals() }));
}

/**
 * Widgets (embeddable chat and kanban, docs/architecture.md#widgets): standalone bundles, one compiler each, for
 * every plugin with a `widget/index.ts` → `plugins/<id>/dist/widget/<id>-widget.js` (a stable name: other
 * sites' pages write it in a script tag), served at `/plugins/<id>/widget/`. No federation, nothing
 * shared: a widget runs on pages that have none of the shell.
 */
export function widgetConfigs(mode: BuildMode, env: NodeJS.ProcessEnv = process.env): Configuration[] {
  return pluginFeatures(env)
    .filter((feature) => existsSync(path.join(feature.root, 'widget', 'index.ts')))
    .map((feature) => ({
      name: `${feature.id}-widget`,
      mode,
      context: feature.root,
      entry: { [`${feature.id}-widget`]: './widget/index.ts' },
      target: 'web',
      devtool: false,
      output: {
        path: path.join(feature.root, 'dist', 'widget'),
        publicPath: 'auto',
        uniqueName: `balcao_${feature.id}_widget`,
        filename: '[name].js',
        // chunks a widget loads later (the chat window on first open): hashed, so cached for ever
        chunkFilename: '[name].[contenthash:10].js',
        clean: true,
        iife: true,
      },
      resolve: RESOLVE,
      module: { rules: moduleRules(mode) },
      performance: false,
      optimization: { splitChunks: false, runtimeChunk: false },
    }));
}

export default (_env: unknown, argv: { mode?: string } = {}): Configuration[] => {
  const mode: BuildMode = (argv.mode ?? process.env.NODE_ENV) === 'development' ? 'development' : 'production';
  return [hostConfig(mode), ...remoteConfigs(mode), ...widgetConfigs(mode)];
};
