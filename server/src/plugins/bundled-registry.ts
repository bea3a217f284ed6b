/**
 * The production build bundles the core with every feature found in the repository (see
 * scripts/build-server.ts). A bundle can't import files by path at run time, so the build generates a
 * registry of each feature's modules — server entry, migrations, route files — keyed by the feature's
 * folder relative to the repository root, and hands it over here before the core starts. Without a
 * registry (development, tests) everything is imported from disk.
 */

/** A lazily imported module. */
export type ModuleLoader = () => Promise<unknown>;

/** The modules of one feature that the bundle holds. */
export interface BundledFeature {
  server?: ModuleLoader;
  /** Migration file name (without extension) → module. */
  migrations: Record<string, ModuleLoader>;
  /** Route file name → module. */
  routes: Record<string, ModuleLoader>;
}

/** What the bundle's entry registers. */
export interface BundledRegistry {
  coreMigrations: Record<string, ModuleLoader>;
  /** Keyed by the feature folder relative to the repository root, with forward slashes (`modules/tickets`). */
  features: Record<string, BundledFeature>;
}

let registry: BundledRegistry | null = null;

/** Called by the bundle's entry before anything else runs. */
export function useBundledRegistry(bundled: BundledRegistry): void {
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
