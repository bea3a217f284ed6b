/**
 * The production build bundles the core with every feature found in the repository (see
 * scripts/build-server.ts). A bundle can't import files by path at run time, so the build generates a
 * registry of each feature's modules — server entry, migrations, route files — keyed by the feature's
 * folder relative to the repository root, and hands it over here before the core starts. Without a
 * registry (development, tests) everything is imported from disk.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrationFiles, migrationName, routeFiles } from './feature-files';

/** A lazily imported module. */
export type ModuleLoader = () => Promise<unknown>;

/** The modules of one feature that the bundle holds. */
export interface BundledFeature {
  server?: ModuleLoader;
  /** Migration file name (without extension) → module. */
  migrations: Record<string, ModuleLoader>;
  /** Route file, relative to the feature's `server/` (`routes/tags.ts`, `team/routes/users.ts`) → module. */
  routes: Record<string, ModuleLoader>;
}

/** What the bundle's entry registers. */
export interface BundledRegistry {
  coreMigrations: Record<string, ModuleLoader>;
  /** Keyed by the feature folder relative to the repository root, with forward slashes (`modules/tickets`). */
  features: Record<string, BundledFeature>;
}

let registry: BundledRegistry | null = null;

/** Called by the bundle's entry before anything else runs (and by tests, with null to go back to source). */
export function useBundledRegistry(bundled: BundledRegistry | null): void {
  registry = bundled;
}

/** The registry when running from the bundle, else null. */
export function bundledRegistry(): BundledRegistry | null {
  return registry;
}

let typeScriptLoader: Promise<void> | null = null;

/**
 * A bundled core that must load a feature from outside the bundle (a third-party plugin named in
 * BALCAO_PLUGINS, in TypeScript) registers tsx's loader first; from source, tsx is already there.
 */
export function ensureTypeScriptLoader(): Promise<void> {
  if (!registry) return Promise.resolve();
  typeScriptLoader ??= import('tsx/esm/api').then(({ register }) => {
    register();
  });
  return typeScriptLoader;
}

/** Imports a file of a feature outside the bundle, registering tsx first when it is TypeScript. */
function importFromDisk(file: string): ModuleLoader {
  return async () => {
    if (file.endsWith('.ts')) await ensureTypeScriptLoader();
    return import(pathToFileURL(file).href);
  };
}

/**
 * The same shape as a bundled feature for one that the bundle doesn't hold (a plugin of BALCAO_PLUGINS):
 * its files imported from disk through tsx. Used when running from the bundle, where nothing else
 * registers a TypeScript loader — without it the feature's migrations, which run first, can't load.
 */
export function featureFromDisk(paths: { serverEntry: string | null; migrationsDir: string; serverDir: string }): BundledFeature {
  const loaders = (dir: string, names: string[], key: (name: string) => string) =>
    Object.fromEntries(names.map((name) => [key(name), importFromDisk(path.join(dir, name))]));
  // the same files the migrator takes from a folder when running from source
  return {
    ...(paths.serverEntry ? { server: importFromDisk(paths.serverEntry) } : {}),
    migrations: loaders(paths.migrationsDir, migrationFiles(paths.migrationsDir), migrationName),
    routes: loaders(paths.serverDir, routeFiles(paths.serverDir), (name) => name),
  };
}
