import { activatePluginUi, isPluginUi, type PluginListing, type PluginUi } from '@balcao/plugin-sdk/ui';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

/** A plugin listing that has a federated remote to load. */
export type RemotePluginListing = PluginListing & { remote: string; remoteName: string };

/** True when the server listed a remote for the plugin (its UI was built). */
export function hasRemote(listing: PluginListing): listing is RemotePluginListing {
  return typeof listing.remote === 'string' && typeof listing.remoteName === 'string';
}

/** A plugin's UI could not be loaded or is not what `definePluginUi` returns. */
export class PluginLoadError extends Error {
  override name = 'PluginLoadError';
  constructor(
    readonly pluginId: string,
    message: string,
    readonly code: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const registered = new Set<string>();

function remoteOf(listing: RemotePluginListing) {
  return { name: listing.remoteName, entry: new URL(listing.remote, globalThis.location.href).href };
}

/**
 * Tells the Module Federation runtime where each listed plugin's remote lives. Nothing is downloaded
 * yet: a remote's code is fetched when one of its routes is first visited.
 */
export function registerPluginRemotes(listings: readonly PluginListing[]): void {
  const fresh = listings.filter(hasRemote).filter((listing) => !registered.has(listing.remoteName));
  if (fresh.length === 0) return;
  registerRemotes(fresh.map(remoteOf));
  for (const listing of fresh) registered.add(listing.remoteName);
}

const loading = new Map<string, Promise<PluginUi>>();

/** The Module Federation error code (`RUNTIME-003`, …) in an error's message, if any. */
function federationCode(error: unknown): string | null {
  const text = error instanceof Error ? error.message : String(error);
  return /RUNTIME-\d{3}/.exec(text)?.[0] ?? null;
}

/** Loads a plugin's exposed `./ui` (once; a failure is forgotten so that a retry loads again). */
export function loadPluginUi(listing: RemotePluginListing): Promise<PluginUi> {
  const cached = loading.get(listing.id);
  if (cached) return cached;
  const promise = (async () => {
    let module: { default?: unknown } | null;
    try {
      module = await loadRemote<{ default?: unknown }>(`${listing.remoteName}/ui`);
    } catch (error) {
      throw new PluginLoadError(listing.id, `The UI of plugin '${listing.id}' failed to load`, federationCode(error), {
        cause: error,
      });
    }
    const ui = module?.default;
    if (!isPluginUi(ui)) {
      throw new PluginLoadError(listing.id, `Plugin '${listing.id}' does not export definePluginUi(...) from ./ui`, null);
    }
    await activatePluginUi(ui);
    return ui;
  })();
  loading.set(listing.id, promise);
  promise.catch(() => loading.delete(listing.id));
  return promise;
}

/**
 * Whether a failed load can be retried in this page. The federation runtime keeps the snapshot of a remote
 * it failed to reach for the page's life (re-registering does not clear it), so a load failure is retried
 * by reloading the page; an error thrown while rendering is retried in place.
 */
export function retriesInPlace(error: Error): boolean {
  return !(error instanceof PluginLoadError);
}
