import type { PluginListing, PluginUi, UiMenuEntry } from '@balcao/plugin-sdk/ui';
import { useEffect, useState } from 'react';
import { type GateableMenuEntry, isMenuEntryVisible, type MenuAudience } from '../menu/menu-gating';
import { hasRemote, loadPluginUi, type RemotePluginListing } from './plugin-remotes';

/**
 * How long after the frame shows the shell starts fetching the remotes that may badge the menu: the page the
 * user opened gets the network first (docs/product/tickets-and-inbox.md#screens-and-routes evaluates the Connections badge 2 s after load anyway).
 */
export const MENU_BADGE_LOAD_DELAY_MS = 500;

/**
 * The plugins whose code the menu needs for a badge: listed with a remote and with a menu entry this user
 * sees that declares `badge` in its manifest. A plugin's menu entries come from its manifest (the menu shows
 * without its code), but a badge is a hook in its code (`definePluginUi({ menuBadges })`), so these remotes
 * are loaded after login; every other remote still loads only when one of its pages is visited.
 */
export function remotesForMenuBadges(listings: readonly PluginListing[], audience: MenuAudience): RemotePluginListing[] {
  return listings
    .filter(hasRemote)
    .filter((listing) =>
      listing.menu.some((entry) => entry.badge === true && isMenuEntryVisible(entry as GateableMenuEntry, audience)),
    );
}

/** The manifest entries of the listed plugins, each with the `useBadge` its loaded UI declares for its key. */
export function pluginMenuEntries(
  listings: readonly PluginListing[],
  loaded: ReadonlyMap<string, PluginUi>,
): GateableMenuEntry[] {
  return listings.flatMap((listing) => {
    const badges = loaded.get(listing.id)?.menuBadges ?? {};
    return listing.menu.map((entry): GateableMenuEntry => {
      const useBadge = badges[entry.key];
      return useBadge ? ({ ...entry, useBadge } as UiMenuEntry) : entry;
    });
  });
}

/**
 * Loads, shortly after login, the UIs of the plugins `remotesForMenuBadges` names and answers them by id as
 * they arrive. A remote that fails is left out: its menu entry shows without a badge, and visiting its page
 * shows the failure where it belongs.
 */
export function usePluginMenuBadgeUis(remotes: readonly RemotePluginListing[]): ReadonlyMap<string, PluginUi> {
  const [loaded, setLoaded] = useState<ReadonlyMap<string, PluginUi>>(new Map());
  const wanted = remotes.map((listing) => listing.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `wanted` names the remotes; the array is rebuilt on every render
  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      for (const listing of remotes) {
        loadPluginUi(listing).then(
          (ui) => {
            if (cancelled || !ui.menuBadges) return;
            setLoaded((current) => new Map(current).set(listing.id, ui));
          },
          () => {},
        );
      }
    }, MENU_BADGE_LOAD_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [wanted]);
  return loaded;
}
