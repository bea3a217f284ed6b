import {
  type AnyPlanFlag,
  can,
  type Language,
  localized,
  type MenuEntry,
  type MenuGroup,
  type Permission,
  type PermissionSubject,
  type PermissionTable,
  type PlanFlags,
} from '@balcao/plugin-sdk/ui';

/** A menu entry from a module (`definePluginUi({ menu })`) or a plugin manifest, before gating. */
export interface GateableMenuEntry extends MenuEntry {
  planFlag?: AnyPlanFlag;
}

/** Who is looking at the menu, and with what plan. */
export interface MenuAudience {
  user: PermissionSubject;
  /** The company's plan flags; undefined while they load (plan-gated entries stay hidden until then). */
  plan: PlanFlags | undefined;
  table: PermissionTable;
}

/** The groups in the order the side menu shows them (docs/product/tickets-and-inbox.md#screens-and-routes). */
export const MENU_GROUP_ORDER: readonly MenuGroup[] = ['management', 'main', 'admin'];

/**
 * The permission an entry of each group needs when it names none itself (docs/product/tickets-and-inbox.md#screens-and-routes, docs/product/roles-and-permissions.md#roles-in-the-inbox): the Management
 * group shows to admins and to profile users with showDashboard or allowRealTime; the Administration
 * group to admins. An entry's own permission replaces it (Connections: `connections:view`, which a
 * profile user holds with allowConnections).
 */
export const GROUP_PERMISSION: Record<MenuGroup, Permission | undefined> = {
  management: 'management:view',
  main: undefined,
  admin: 'drawer-admin-items:view',
};

/** Whether one entry shows to this audience: super-only, plan flag, then permission through `can()`. */
export function isMenuEntryVisible(entry: GateableMenuEntry, audience: MenuAudience): boolean {
  if (entry.superOnly && audience.user.super !== true) return false;
  if (entry.planFlag && audience.plan?.[entry.planFlag] !== true) return false;
  const permission = entry.permission ?? GROUP_PERMISSION[entry.group];
  return permission === undefined || can(audience.user, permission, audience.table);
}

/** One group of the side menu with its visible entries, in order. */
export interface MenuSection<Entry extends GateableMenuEntry = GateableMenuEntry> {
  group: MenuGroup;
  entries: Entry[];
}

/**
 * The side menu: visible entries grouped (Management, main, Administration), each group sorted by
 * `order` then by label in `language`; empty groups are left out. An entry whose path appears twice keeps
 * its first occurrence (modules come before plugins).
 */
export function buildMenuSections<Entry extends GateableMenuEntry>(
  entries: readonly Entry[],
  audience: MenuAudience,
  language: Language,
): Array<MenuSection<Entry>> {
  const seen = new Set<string>();
  const visible = entries.filter((entry) => {
    if (seen.has(entry.path) || !isMenuEntryVisible(entry, audience)) return false;
    seen.add(entry.path);
    return true;
  });
  return MENU_GROUP_ORDER.map((group) => ({
    group,
    entries: visible
      .filter((entry) => entry.group === group)
      .sort(
        (a, b) =>
          (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) ||
          localized(a.label, language).localeCompare(localized(b.label, language), language),
      ),
  })).filter((section) => section.entries.length > 0);
}

/** The key of the entry that matches the current path (the longest path prefix wins). */
export function selectedMenuKey(paths: readonly string[], pathname: string): string | undefined {
  let best: string | undefined;
  for (const path of paths) {
    const matches = path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
    if (matches && (best === undefined || path.length > best.length)) best = path;
  }
  return best;
}
