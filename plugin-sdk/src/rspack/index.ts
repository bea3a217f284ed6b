/**
 * The build side of the plugin SDK: the Module Federation conventions that the host and every plugin
 * remote must agree on (container names, shared singletons, loaders), and a preset that turns a plugin's
 * package.json manifest into an rspack configuration for its federated remote.
 *
 * @example
 * // rspack.config.ts of a third-party plugin
 * import { createRemoteConfig, readFeatureManifest } from '@balcao/plugin-sdk/rspack';
 * export default createRemoteConfig(readFeatureManifest(import.meta.dirname));
 * @packageDocumentation
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Configuration, type RuleSetRule, rspack } from '@rspack/core';
import { remoteContainerName } from '../shared/session';

export { remoteContainerName };

/** Build mode of a compiler. */
export type BuildMode = 'production' | 'development';

/**
 * The packages that exist once per page, shared by the host and every remote (docs/architecture.md#front-end).
 * A trailing slash shares the package's subpaths too (`react/jsx-runtime`, `react-dom/client`), without
 * which a subpath import would load a second React. RTK Query is not shared by itself: features reach it
 * through the SDK's one `api` (and `skipToken` from the SDK), so it is bundled, tree-shaken, inside the SDK.
 */
export const SHARED_SINGLETONS: ReadonlyArray<{ key: string; packageName: string }> = [
  { key: 'react', packageName: 'react' },
  { key: 'react/', packageName: 'react' },
  { key: 'react-dom', packageName: 'react-dom' },
  { key: 'react-dom/', packageName: 'react-dom' },
  { key: 'react-router', packageName: 'react-router' },
  { key: 'antd', packageName: 'antd' },
  { key: 'redux', packageName: 'redux' },
  { key: 'react-redux', packageName: 'react-redux' },
  { key: '@reduxjs/toolkit', packageName: '@reduxjs/toolkit' },
  { key: 'i18next', packageName: 'i18next' },
  { key: 'react-i18next', packageName: 'react-i18next' },
  { key: '@balcao/plugin-sdk/ui', packageName: '@balcao/plugin-sdk' },
];

/** The `balcao.ui` part of a plugin manifest, as far as the build needs it. */
export interface FeatureUiManifest {
  entry: string;
  routes: Array<{ path: string }>;
}

/** What the build reads from a feature's package.json. */
export interface FeatureManifest {
  id: string;
  kind: 'module' | 'plugin';
  /** The package root folder. */
  root: string;
  version: string;
  ui?: FeatureUiManifest;
}

/** Reads a feature's `balcao` manifest from its package.json, or null when the folder holds no feature. */
export function readFeatureManifest(root: string): FeatureManifest | null {
  const packageFile = path.join(root, 'package.json');
  if (!existsSync(packageFile)) return null;
  const pkg = JSON.parse(readFileSync(packageFile, 'utf8')) as {
    version?: string;
    balcao?: { id?: unknown; kind?: unknown; ui?: { entry?: unknown; routes?: unknown } };
  };
  const manifest = pkg.balcao;
  if (!manifest || typeof manifest.id !== 'string') return null;
  const kind = manifest.kind === 'module' ? 'module' : 'plugin';
  const ui =
    manifest.ui && typeof manifest.ui.entry === 'string'
      ? {
          entry: manifest.ui.entry,
          routes: Array.isArray(manifest.ui.routes) ? (manifest.ui.routes as Array<{ path: string }>) : [],
        }
      : undefined;
  return { id: manifest.id, kind, root: path.resolve(root), version: pkg.version ?? '0.0.0', ...(ui ? { ui } : {}) };
}

/**
 * The installed version of a package, found the way Node would find it from `fromDir` (walking up the
 * node_modules folders), reading its package.json directly: `exports` maps may hide both the main entry
 * and package.json itself.
 */
function installedVersion(packageName: string, fromDir: string): string {
  const require = createRequire(path.join(fromDir, 'package.json'));
  for (const nodeModules of require.resolve.paths(packageName) ?? []) {
    const candidate = path.join(nodeModules, packageName, 'package.json');
    if (!existsSync(candidate)) continue;
    const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { version?: string };
    if (pkg.version) return pkg.version;
  }
  throw new Error(`Cannot find the installed version of ${packageName} from ${fromDir}`);
}

/** One shared entry of the Module Federation plugin. */
export interface SharedEntry {
  singleton: true;
  eager: false;
  requiredVersion: string;
  version?: string;
  import?: false | string;
  packageName: string;
}

/**
 * The shared configuration of the host or of a remote. The host provides every singleton; a remote
 * provides none (`import: false`): it always runs inside the host and takes the host's copies, so it
 * ships no fallback React or antd of its own.
 */
export function sharedSingletons(
  role: 'host' | 'remote',
  resolveFrom: string,
  /** Host only: the module that provides a key, when it is not the package itself (a curated surface). */
  provideFrom: Record<string, string> = {},
): Record<string, SharedEntry> {
  const shared: Record<string, SharedEntry> = {};
  for (const { key, packageName } of SHARED_SINGLETONS) {
    const version = installedVersion(packageName, resolveFrom);
    shared[key] = {
      singleton: true,
      eager: false,
      requiredVersion: `^${version}`,
      packageName,
      ...(role === 'host' ? { version, ...(provideFrom[key] ? { import: provideFrom[key] } : {}) } : { import: false }),
    };
  }
  return shared;
}

/** Browsers the bundles target. */
export const BROWSER_TARGETS = ['chrome >= 111', 'edge >= 111', 'firefox >= 111', 'safari >= 16.4'];

/**
 * The TypeScript that the loaders skip: installed packages ship JavaScript, except the SDK, which ships its
 * TypeScript sources (docs/plugin-authoring.md, "The SDK as a package") and is compiled with the remote.
 */
export const SKIPPED_TYPESCRIPT = /node_modules[\\/](?!@balcao[\\/]plugin-sdk[\\/])/;

/** Loaders shared by every compiler: TypeScript/TSX through rspack's builtin SWC, CSS as native CSS modules. */
export function moduleRules(mode: BuildMode): RuleSetRule[] {
  return [
    {
      test: /\.(ts|tsx)$/,
      exclude: SKIPPED_TYPESCRIPT,
      loader: 'builtin:swc-loader',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: mode === 'development' } },
        },
        env: { targets: BROWSER_TARGETS },
      },
      type: 'javascript/auto',
    },
    // Some packages ship ESM files that import without file extensions.
    { test: /\.m?js$/, resolve: { fullySpecified: false } },
    { test: /\.css$/, type: 'css/auto' },
  ];
}

/** Resolution shared by every compiler. */
export const RESOLVE: Configuration['resolve'] = {
  extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
};

/** Options of `createRemoteConfig`. */
export interface RemoteConfigOptions {
  /** `production` by default. */
  mode?: BuildMode;
  /** Values for DefinePlugin (the API base address, …). */
  define?: Record<string, string>;
}

/**
 * The rspack configuration of one plugin's federated remote: container `balcao_<id>`, exposing `./ui`
 * (the manifest's `ui.entry`, whose default export comes from `definePluginUi`), written with its
 * `mf-manifest.json` to `<plugin root>/dist/ui/`, which the server serves at `/plugins/<id>/`.
 */
export function createRemoteConfig(feature: FeatureManifest | null, options: RemoteConfigOptions = {}): Configuration {
  if (!feature) throw new Error('createRemoteConfig: no "balcao" manifest in that folder\'s package.json');
  if (!feature.ui) throw new Error(`${feature.id}: the manifest has no balcao.ui entry to build`);
  const name = remoteContainerName(feature.id);
  const mode = options.mode ?? 'production';
  return {
    name,
    mode,
    context: feature.root,
    // the container entry that ModuleFederationPlugin adds is the only one a remote needs
    entry: {},
    target: 'web',
    devtool: mode === 'production' ? false : 'cheap-module-source-map',
    output: {
      path: path.join(feature.root, 'dist', 'ui'),
      publicPath: 'auto',
      uniqueName: name,
      filename: '[name].[contenthash:10].js',
      chunkFilename: '[name].[contenthash:10].js',
      cssFilename: '[name].[contenthash:10].css',
      cssChunkFilename: '[name].[contenthash:10].css',
      clean: true,
    },
    resolve: RESOLVE,
    module: { rules: moduleRules(mode) },
    performance: false,
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes: { './ui': path.resolve(feature.root, feature.ui.entry) },
        shared: sharedSingletons('remote', feature.root),
        shareStrategy: 'loaded-first',
        manifest: { fileName: 'mf-manifest.json' },
        dts: false,
      }),
      ...(options.define ? [defineGlobals(options.define)] : []),
    ],
  };
}

/** DefinePlugin with JSON-encoded values. */
export function defineGlobals(values: Record<string, string>) {
  return new rspack.DefinePlugin(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, JSON.stringify(value)])));
}
