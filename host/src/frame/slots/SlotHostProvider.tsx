import {
  type ExtensionSlotName,
  type PlanFlags,
  type PluginListing,
  type PluginUi,
  permissionTable,
  type SessionUser,
  type SlotHost,
  SlotHostContext,
} from '@balcao/plugin-sdk/ui';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { hasRemote, loadPluginUi } from '../remotes/plugin-remotes';
import { SlotMount } from './SlotMount';
import { collectSlotEntries, fillsSlots, type SlotSource } from './slot-entries';

/** Props of the provider. */
export interface SlotHostProviderProps {
  user: SessionUser;
  /** The company's plan flags; undefined while they load (plugins contribute nothing until then). */
  plan: PlanFlags | undefined;
  /** The module UIs, activated (undefined while they load). */
  modules: readonly PluginUi[] | undefined;
  /** The plugins the company may load (`GET /plugins`; undefined while it loads). */
  plugins: readonly PluginListing[] | undefined;
  children: ReactNode;
}

/**
 * Gives every slot of the private pages its contributions: the modules' at once, a plugin's once a slot its
 * manifest declares (`ui.slots`, listed by `GET /plugins`) first renders — then that plugin's remote is loaded
 * (its exposed entry only: keep it light, pages behind `lazy`), and no other plugin's. A remote that fails to
 * load is logged and left out; its pages show the failure where they belong.
 */
export function SlotHostProvider({ user, plan, modules, plugins, children }: SlotHostProviderProps) {
  const [wanted, setWanted] = useState<ReadonlySet<ExtensionSlotName>>(new Set());
  const [loaded, setLoaded] = useState<ReadonlyMap<string, PluginUi>>(new Map());
  const remotes = useMemo(
    () =>
      (plugins ?? [])
        .filter(hasRemote)
        .filter((listing) => !listing.planFlag || plan?.[listing.planFlag] === true)
        .filter((listing) => listing.slots.some((name) => wanted.has(name))),
    [plugins, plan, wanted],
  );
  const remoteIds = remotes.map((listing) => listing.id).join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `remoteIds` names the remotes; the array is rebuilt with the plan
  useEffect(() => {
    let cancelled = false;
    for (const listing of remotes) {
      loadPluginUi(listing).then(
        (ui) => {
          if (cancelled || !fillsSlots(ui)) return;
          setLoaded((current) => (current.get(listing.id) === ui ? current : new Map(current).set(listing.id, ui)));
        },
        (error: unknown) => console.warn(`Plugin '${listing.id}' could not fill its slots`, error),
      );
    }
    return () => {
      cancelled = true;
    };
  }, [wanted, remoteIds]);

  const entries = useMemo(() => {
    const sources: SlotSource[] = [
      ...(modules ?? []).map((ui) => ({ ui })),
      ...(plugins ?? []).flatMap((listing) => {
        const ui = loaded.get(listing.id);
        return ui ? [{ ui, planFlag: listing.planFlag, declared: listing.slots }] : [];
      }),
    ];
    return collectSlotEntries(sources, { user, plan, table: permissionTable() });
  }, [modules, plugins, loaded, user, plan]);

  const request = useCallback(
    (name: ExtensionSlotName) => setWanted((current) => (current.has(name) ? current : new Set(current).add(name))),
    [],
  );
  const host = useMemo<SlotHost>(() => ({ entries: (name) => entries[name], Mount: SlotMount, request }), [entries, request]);
  return <SlotHostContext.Provider value={host}>{children}</SlotHostContext.Provider>;
}
