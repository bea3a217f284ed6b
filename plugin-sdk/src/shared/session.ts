import type { Profile, Toggle } from './permissions';
import type { AnyPlanFlag, PlanFlags } from './plan-flags';
import type { ExtensionSlotName } from './slot-names';

/** A company setting as the session carries it (docs/product/tickets-and-inbox.md#entities `companieSettings`). */
export interface CompanySettingPair {
  key: string;
  value: string;
}

/** The session user of docs/product/tickets-and-inbox.md#entities, as `POST /auth/login`, `/auth/refresh_token` and `GET /auth/me` return it. */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  companyId: number;
  profile: Profile;
  super: boolean;
  showDashboard: Toggle;
  allowRealTime: Toggle;
  allowConnections: Toggle;
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  allHistoric: Toggle;
  allUserChat: Toggle;
  userClosePendingTicket: Toggle;
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  defaultTicketsManagerWidth: number;
  profileImage: string | null;
  online: boolean;
  company: {
    id: number;
    name: string;
    dueDate: string;
    companieSettings: CompanySettingPair[];
  };
  queues: Array<{ id: number; name: string; color: string }>;
  /**
   * The server's verdict on the company's subscription when it answered: past its due date by the
   * server's calendar (never for the super user). The session then reaches only the pay screen. Optional
   * for answers of servers before SDK 1.8.
   */
  expired?: boolean;
  /** Extra fields that features contribute (see `definePlugin({ session })`). */
  [extra: string]: unknown;
}

/** What `POST /auth/login` and `POST /auth/refresh_token` answer. */
export interface AuthResponse {
  token: string;
  user: SessionUser;
}

/** One plugin the session's company may load (`GET /plugins`). */
export interface PluginListing {
  id: string;
  version: string;
  planFlag: AnyPlanFlag | null;
  /** URL of the plugin's Module Federation manifest (`mf-manifest.json`), or null when it has no UI. */
  remote: string | null;
  /** The federation container name the remote exposes itself under. */
  remoteName: string | null;
  menu: MenuEntry[];
  routes: Array<{ path: string }>;
  /** The slots its UI fills (its manifest's `ui.slots`): the shell loads the remote for these only. */
  slots: ExtensionSlotName[];
}

/** Which menu group an entry belongs to (docs/product/tickets-and-inbox.md#side-menu). */
export type MenuGroup = 'management' | 'main' | 'admin';

/** A side-menu entry a feature declares. Gating is evaluated by the host with the session and plan. */
export interface MenuEntry {
  key: string;
  group: MenuGroup;
  path: string;
  /** Icon name from @ant-design/icons (for example `TagsOutlined`). */
  icon?: string;
  /** The label in each language: pt (default), en, es, tr. */
  label: Record<'pt' | 'en' | 'es' | 'tr', string>;
  /** Shown only to holders of this permission. */
  permission?: string;
  /**
   * The entry shows a badge computed by the plugin's UI (`definePluginUi({ menuBadges })`): the shell loads
   * that plugin's remote shortly after login to run it. Without it a remote loads only when visited.
   */
  badge?: boolean;
  /** Shown only to super users. */
  superOnly?: boolean;
  /** Order inside its group (lower first). */
  order?: number;
}

export type { PlanFlags };

/**
 * The Module Federation container name of a plugin's remote: what the rspack preset builds and what the
 * server's plugin listing tells the host to load, from this one function.
 */
export function remoteContainerName(pluginId: string): string {
  return `balcao_${pluginId.replaceAll('-', '_')}`;
}
