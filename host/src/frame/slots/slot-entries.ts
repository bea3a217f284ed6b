import {
  type AnyPlanFlag,
  can,
  EXTENSION_SLOT_NAMES,
  type ExtensionSlotName,
  type ExtensionSlots,
  type PluginUi,
  type SlotEntry,
  type SlotGate,
} from '@balcao/plugin-sdk/ui';
import type { MenuAudience } from '../menu/menu-gating';

/** A feature whose UI may fill slots: a module (always on) or a loaded plugin with the plan flag it needs. */
export interface SlotSource {
  ui: PluginUi;
  /** The plugin's own plan flag (from `GET /plugins`); a module has none. */
  planFlag?: AnyPlanFlag | null;
  /** The slots a plugin's manifest declares (`ui.slots`); its contributions to others are left out. A module has none. */
  declared?: readonly ExtensionSlotName[];
}

/** Gated, ordered contributions by slot name. */
export type SlotEntries = { [Name in ExtensionSlotName]: Array<SlotEntry<Name>> };

/** Whether a contribution shows to this audience: super-only, plan flag, then permission through `can()`, as the menu. */
export function isGateOpen(gate: SlotGate, audience: MenuAudience): boolean {
  if (gate.superOnly && audience.user.super !== true) return false;
  if (gate.planFlag && audience.plan?.[gate.planFlag] !== true) return false;
  return gate.permission === undefined || can(audience.user, gate.permission, audience.table);
}

/** True when a feature's UI fills at least one extension slot (a remote worth keeping for slots). */
export function fillsSlots(ui: PluginUi): boolean {
  return EXTENSION_SLOT_NAMES.some((name) => (ui.slots?.[name]?.length ?? 0) > 0);
}

/**
 * Every slot's contributions for this audience. A plugin whose plan flag the company's plan lacks (or whose
 * plan is still loading) contributes nothing, whatever its code says; each contribution's own gate is then
 * checked. Order: by `order` (lower first, none last), then by source (modules before plugins, as the
 * caller lists them), then by place in the feature's array.
 */
export function collectSlotEntries(sources: readonly SlotSource[], audience: MenuAudience): SlotEntries {
  const entries = Object.fromEntries(EXTENSION_SLOT_NAMES.map((name) => [name, []])) as unknown as SlotEntries;
  const allowed = sources.filter((source) => !source.planFlag || audience.plan?.[source.planFlag] === true);
  for (const name of EXTENSION_SLOT_NAMES) {
    const ranked: Array<{ entry: SlotEntry<typeof name>; rank: number }> = [];
    for (const { ui, declared } of allowed) {
      if (declared && !declared.includes(name)) continue;
      const contributions = (ui.slots?.[name] ?? []) as NonNullable<ExtensionSlots[typeof name]>;
      for (const contribution of contributions) {
        if (!isGateOpen(contribution, audience)) continue;
        ranked.push({ entry: { ...contribution, featureId: ui.id } as SlotEntry<typeof name>, rank: ranked.length });
      }
    }
    ranked.sort(
      (a, b) => (a.entry.order ?? Number.POSITIVE_INFINITY) - (b.entry.order ?? Number.POSITIVE_INFINITY) || a.rank - b.rank,
    );
    (entries[name] as Array<SlotEntry<typeof name>>) = ranked.map(({ entry }) => entry);
  }
  return entries;
}
