import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isPlanFlag, PluginManifest, type PluginPlanFlag, SDK_VERSION } from '@balcao/plugin-sdk/server';
import { Ajv } from 'ajv';
import semver from 'semver';
import { REPO_ROOT } from '../config';
import { type BundledFeature, bundledRegistry, featureFromDisk } from './bundled-registry';

/** A feature found on disk, validated and ready to load. */
export interface DiscoveredPlugin {
  manifest: PluginManifest;
  /** The package.json version. */
  version: string;
  /** The package root folder. */
  root: string;
  serverEntry: string | null;
  migrationsDir: string;
  /** The feature's `server/` folder: its route files are `routes/*.ts` and `<area>/routes/*.ts` in it. */
  serverDir: string;
  /** Where rspack writes the plugin's federated remote (served at `/plugins/<id>/`). */
  uiDist: string;
  /** Where the repo came from: `modules`, `plugins` or `extra`. */
  origin: 'modules' | 'plugins' | 'extra';
  /**
   * When running from the server bundle, how to import this feature's modules: the bundle's own, or
   * from disk through tsx for a feature the bundle doesn't hold. Null when running from source.
   */
  bundled: BundledFeature | null;
}

/** Thrown when a feature can't be loaded; the message names the feature and what to fix. */
export class PluginManifestError extends Error {
  override name = 'PluginManifestError';
}

const validateManifest = new Ajv({ allErrors: true, strict: false }).compile(PluginManifest);

/**
 * ajv's complaints about the last manifest validated, one per field in words an author can act on: an
 * unknown field by name, a value outside a list (plan flags, kinds) with the list and what was given.
 */
function manifestProblems(manifest: unknown): string[] {
  const problems = new Map<string, string>();
  const allowed = new Map<string, { values: unknown[]; got: unknown }>();
  for (const error of validateManifest.errors ?? []) {
    const field = `balcao${error.instancePath.replaceAll('/', '.')}`;
    const params = error.params as { additionalProperty?: string; allowedValue?: unknown };
    if (error.keyword === 'additionalProperties') {
      problems.set(`${field}.${params.additionalProperty}`, `${field}.${params.additionalProperty} is not a manifest field`);
    } else if (error.keyword === 'const') {
      const got = error.instancePath
        .split('/')
        .slice(1)
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], manifest);
      allowed.set(field, { values: [...(allowed.get(field)?.values ?? []), params.allowedValue], got });
    } else problems.set(`${field} ${error.keyword}`, `${field} ${error.message}`);
  }
  for (const [field, { values, got }] of allowed) {
    problems.delete(`${field} anyOf`);
    problems.set(field, `${field} must be one of ${values.join(', ')} (got ${JSON.stringify(got)})`);
  }
  return [...problems.values()];
}

function readFeature(root: string, origin: DiscoveredPlugin['origin']): DiscoveredPlugin | null {
  const packageFile = path.join(root, 'package.json');
  if (!existsSync(packageFile)) return null;
  let pkg: { name?: string; version?: string; balcao?: unknown };
  try {
    pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
  } catch (error) {
    throw new PluginManifestError(`${packageFile}: not valid JSON (${(error as Error).message})`);
  }
  if (pkg.balcao === undefined) {
    if (origin === 'extra') throw new PluginManifestError(`${packageFile}: no "balcao" manifest field`);
    return null;
  }
  if (!validateManifest(pkg.balcao)) {
    const id = (pkg.balcao as { id?: unknown } | null)?.id;
    const named = typeof id === 'string' ? ` of '${id}'` : '';
    throw new PluginManifestError(`${packageFile}: invalid manifest${named}: ${manifestProblems(pkg.balcao).join('; ')}`);
  }
  const manifest = pkg.balcao as PluginManifest;
  if (!semver.validRange(manifest.sdk)) {
    throw new PluginManifestError(`${packageFile}: balcao.sdk '${manifest.sdk}' is not a semver range`);
  }
  if (!semver.satisfies(SDK_VERSION, manifest.sdk)) {
    throw new PluginManifestError(`${manifest.id}: needs plugin SDK ${manifest.sdk}, this core provides ${SDK_VERSION}`);
  }
  if (origin === 'modules' && manifest.kind !== 'module') {
    throw new PluginManifestError(`${manifest.id}: lives in modules/ but declares kind '${manifest.kind}'`);
  }
  if (origin === 'plugins' && manifest.kind !== 'plugin') {
    throw new PluginManifestError(`${manifest.id}: lives in plugins/ but declares kind '${manifest.kind}'`);
  }
  if (manifest.kind === 'module' && manifest.planFlag) {
    throw new PluginManifestError(`${manifest.id}: a module is always on; plan-gated features are plugins`);
  }
  if (manifest.planFlag && !isPlanFlag(manifest.planFlag) && !manifest.planFlagLabel) {
    throw new PluginManifestError(
      `${manifest.id}: planFlag '${manifest.planFlag}' is none of the ten plan flags: declare it as the plugin's own with planFlagLabel (pt, en, es, tr)`,
    );
  }
  if (manifest.planFlagLabel && (!manifest.planFlag || isPlanFlag(manifest.planFlag))) {
    throw new PluginManifestError(`${manifest.id}: planFlagLabel names a plugin's own planFlag, not one of the ten or none`);
  }
  const entry = path.join(root, manifest.server ?? 'server/index.ts');
  const migrationsDir = path.join(root, 'server', 'migrations');
  const serverDir = path.join(root, 'server');
  const registry = bundledRegistry();
  const inBundle = registry?.features[path.relative(REPO_ROOT, root).split(path.sep).join('/')];
  const serverEntry = inBundle?.server || existsSync(entry) ? entry : null;
  return {
    manifest,
    version: pkg.version ?? '0.0.0',
    root,
    serverEntry,
    migrationsDir,
    serverDir,
    uiDist: path.join(root, 'dist', 'ui'),
    origin,
    // running from the bundle, a feature it doesn't hold is imported from disk, through tsx when TypeScript
    bundled: registry ? (inBundle ?? featureFromDisk({ serverEntry, migrationsDir, serverDir })) : null,
  };
}

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((full) => statSync(full).isDirectory())
    .sort();
}

/**
 * Resolves an extra plugin named in config: a folder path, or the name of a package installed where Node
 * would find it from the repository. The package's folder is found through the node_modules lookup
 * paths, not `require.resolve('<name>/package.json')`, which an `exports` map without `./package.json`
 * (the usual ESM package) refuses.
 */
function resolveExtra(entry: string, repoRoot: string): string {
  const asPath = path.resolve(entry);
  if (existsSync(path.join(asPath, 'package.json'))) return asPath;
  const isPackageName = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(entry);
  const lookup = isPackageName ? (createRequire(path.join(repoRoot, 'package.json')).resolve.paths(entry) ?? []) : [];
  for (const nodeModules of lookup) {
    const root = path.join(nodeModules, entry);
    if (existsSync(path.join(root, 'package.json'))) return root;
  }
  throw new PluginManifestError(`BALCAO_PLUGINS: '${entry}' is neither a plugin folder nor an installed package`);
}

/**
 * Orders features so that each comes after what it depends on; refuses unknown dependencies and cycles,
 * naming them.
 */
export function orderByDependencies(plugins: DiscoveredPlugin[]): DiscoveredPlugin[] {
  const byId = new Map(plugins.map((plugin) => [plugin.manifest.id, plugin]));
  const ordered: DiscoveredPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: DiscoveredPlugin, trail: string[]) => {
    const id = plugin.manifest.id;
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') {
      throw new PluginManifestError(`dependency cycle: ${[...trail, id].join(' → ')}`);
    }
    state.set(id, 'visiting');
    for (const dependency of plugin.manifest.dependsOn ?? []) {
      const target = byId.get(dependency);
      if (!target) throw new PluginManifestError(`${id}: depends on '${dependency}', which is not installed`);
      visit(target, [...trail, id]);
    }
    state.set(id, 'done');
    ordered.push(plugin);
  };
  // modules, then plugins, then extra folders where dependencies allow: a stable, readable order
  const rank = { modules: 0, plugins: 1, extra: 2 } as const;
  const sorted = [...plugins].sort((a, b) => rank[a.origin] - rank[b.origin] || a.manifest.id.localeCompare(b.manifest.id));
  for (const plugin of sorted) {
    visit(plugin, []);
  }
  return ordered;
}

/** Finds every feature: `modules/*`, `plugins/*` and the extra ones of config, validated and ordered. */
export function discoverPlugins(extra: string[], repoRoot = REPO_ROOT): DiscoveredPlugin[] {
  const found: DiscoveredPlugin[] = [];
  for (const dir of subfolders(path.join(repoRoot, 'modules'))) {
    const feature = readFeature(dir, 'modules');
    if (feature) found.push(feature);
  }
  for (const dir of subfolders(path.join(repoRoot, 'plugins'))) {
    const feature = readFeature(dir, 'plugins');
    if (feature) found.push(feature);
  }
  for (const entry of extra) {
    const feature = readFeature(resolveExtra(entry, repoRoot), 'extra');
    if (feature) found.push(feature);
  }
  const seen = new Map<string, string>();
  for (const feature of found) {
    const other = seen.get(feature.manifest.id);
    if (other) throw new PluginManifestError(`two features share the id '${feature.manifest.id}': ${other} and ${feature.root}`);
    seen.set(feature.manifest.id, feature.root);
  }
  // a plugin's own flag prices that plugin alone: two plugins declaring one would share a price
  const flagOwners = new Map<string, string>();
  for (const flag of declaredPlanFlags(found)) {
    const other = flagOwners.get(flag.key);
    if (other) throw new PluginManifestError(`plugins '${other}' and '${flag.plugin}' both declare the plan flag '${flag.key}'`);
    flagOwners.set(flag.key, flag.plugin);
  }
  return orderByDependencies(found);
}

/** The plan flags the features declare for themselves (beside the ten), in the order given. */
export function declaredPlanFlags(features: DiscoveredPlugin[]): PluginPlanFlag[] {
  return features.flatMap(({ manifest }) =>
    manifest.planFlag && manifest.planFlagLabel
      ? [{ key: manifest.planFlag, plugin: manifest.id, label: manifest.planFlagLabel }]
      : [],
  );
}
