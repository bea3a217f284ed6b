import type { ComponentType, ReactNode } from 'react';
import type { PermissionTable } from '../shared/permissions';
import type { AnyPlanFlag } from '../shared/plan-flags';
import type { MenuEntry } from '../shared/session';
import { registerTranslations } from './i18n';
import { type FeatureTranslations, LANGUAGES } from './languages';
import { registerPermissions } from './permissions';
import type { ExtensionSlots } from './slots';

/** A page of a feature: a documented path (`/tags`, `/flowbuilder/:id?`) and what it renders. */
export interface UiRoute {
  path: string;
  element: ReactNode;
}

/**
 * A side-menu entry of a module (plugins declare theirs in package.json). Besides the manifest fields it
 * may name the plan flag it needs and a hook deciding visibility from data (Helps: only when the help list
 * is non-empty).
 */
export interface UiMenuEntry extends MenuEntry {
  planFlag?: AnyPlanFlag;
  /** A React hook: the entry shows only while it returns true. Called once per render of the menu. */
  useVisible?: () => boolean;
  /**
   * A React hook: the entry's badge — a count, `true` for a dot, or nothing (the Connections status
   * badge and the Internal chat unread dot of docs/product/tickets-and-inbox.md#screens-and-routes).
   */
  useBadge?: () => MenuBadge;
}

/** What a menu entry's badge shows: a count (none when 0), a dot (`true`), or nothing. */
export type MenuBadge = number | boolean | null | undefined;

/** An item a feature adds to the avatar menu of the top bar (the users module's Profile). */
export interface UserMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  /** The dialog the item opens. */
  Dialog: ComponentType<{ open: boolean; onClose: () => void }>;
}

/**
 * What a feature adds to screens that aren't its own: the frame's avatar menu (modules), and the extension
 * points of the top bar, the inbox, the Settings page and the dashboard (modules and plugins;
 * docs/plugin-authoring.md "UI slots").
 */
export interface PluginUiSlots extends ExtensionSlots {
  /** Items of the avatar menu, above Logout. */
  userMenu?: UserMenuItem[];
}

/** What `definePluginUi` takes. */
export interface PluginUiOptions {
  /** The feature id (the manifest's `balcao.id`); also its i18n namespace. */
  id: string;
  routes: UiRoute[];
  /** Menu entries of a module (a plugin's come from its manifest, so the menu shows without its code). */
  menu?: UiMenuEntry[];
  /** The feature's translations, one tree per language, under the namespace `id`. */
  i18n: FeatureTranslations;
  slots?: PluginUiSlots;
  /**
   * Badges of a plugin's manifest menu entries, by entry `key` (`{ connections: useConnectionsBadge }`): the
   * same hook as a module entry's `useBadge`. The shell loads the remote of a plugin whose entries the user
   * sees shortly after login to run them, so keep the exposed entry light (pages behind `lazy`).
   */
  menuBadges?: Record<string, () => MenuBadge>;
  /** Permissions the feature's UI gates with, beyond the core's (`{ 'kanban:manage': ['admin'] }`). */
  permissions?: PermissionTable;
}

/** A feature's UI, as the host loads it (the default export of `ui/index.tsx`). */
export interface PluginUi extends Readonly<PluginUiOptions> {
  readonly kind: 'balcao-plugin-ui';
}

const FEATURE_ID = /^[a-z][a-z0-9-]{1,39}$/;

/**
 * Declares a feature's UI: its pages, menu entries (modules), translations and slots. The default export
 * of every `modules/<name>/ui/index.tsx` and of every plugin remote's exposed `./ui`.
 *
 * @example
 * export default definePluginUi({
 *   id: 'hello',
 *   routes: [{ path: '/hello', element: <HelloPage /> }],
 *   i18n: { pt, en, es, tr },
 * });
 */
export function definePluginUi(options: PluginUiOptions): PluginUi {
  if (!FEATURE_ID.test(options.id)) throw new Error(`definePluginUi: '${options.id}' is not a feature id (a-z, 0-9, -)`);
  for (const route of options.routes) {
    if (!route.path.startsWith('/')) throw new Error(`definePluginUi(${options.id}): route '${route.path}' must start with /`);
  }
  for (const language of LANGUAGES) {
    if (typeof options.i18n[language] !== 'object' && typeof options.i18n[language] !== 'function') {
      throw new Error(`definePluginUi(${options.id}): translations for '${language}' are missing`);
    }
  }
  for (const [slot, contributions] of Object.entries(options.slots ?? {})) {
    if (slot === 'userMenu') continue;
    const keys = new Set<string>();
    for (const contribution of contributions as Array<{ key?: unknown }>) {
      // the key names a contribution in React and in the shell's error logs: one per slot, never missing
      if (typeof contribution.key !== 'string' || contribution.key === '' || keys.has(contribution.key)) {
        throw new Error(`definePluginUi(${options.id}): every contribution to slot '${slot}' needs a key of its own`);
      }
      keys.add(contribution.key);
    }
  }
  return { ...options, kind: 'balcao-plugin-ui' };
}

/** True when `value` is what `definePluginUi` returns (a remote's module may be anything). */
export function isPluginUi(value: unknown): value is PluginUi {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'balcao-plugin-ui';
}

const activated = new Set<string>();

/**
 * Registers a feature's translations and permissions; the host calls it once when the feature loads and
 * renders the feature once the current language's translations are in.
 */
export async function activatePluginUi(ui: PluginUi): Promise<void> {
  if (activated.has(ui.id)) return;
  activated.add(ui.id);
  if (ui.permissions) registerPermissions(ui.permissions);
  await registerTranslations(ui.id, ui.i18n);
}
