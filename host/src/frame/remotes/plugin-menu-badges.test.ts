import { definePluginUi, type PluginListing, permissionTable, type SessionUser } from '@balcao/plugin-sdk/ui';
import { describe, expect, it } from 'vitest';
import { pluginMenuEntries, remotesForMenuBadges } from './plugin-menu-badges';

const label = { pt: 'Conexões', en: 'Connections', es: 'Conexiones', tr: 'Bağlantılar' };

const channels: PluginListing = {
  id: 'channels',
  version: '4.2.0',
  planFlag: null,
  remote: '/plugins/channels/mf-manifest.json',
  remoteName: 'balcao_channels',
  routes: [{ path: '/connections' }, { path: '/allConnections' }],
  slots: [],
  menu: [
    {
      key: 'connections',
      group: 'admin',
      path: '/connections',
      label,
      permission: 'connections-page:actionButtons',
      badge: true,
    },
    { key: 'all-connections', group: 'admin', path: '/allConnections', label, superOnly: true },
  ],
};

const user = (fields: Partial<SessionUser>) => ({ id: 1, profile: 'admin', super: false, ...fields }) as SessionUser;

describe("plugins' menu badges", () => {
  it('loads only the remotes of plugins with a badged entry the user sees', () => {
    const audience = (fields: Partial<SessionUser>) => ({ user: user(fields), plan: undefined, table: permissionTable() });
    expect(remotesForMenuBadges([channels], audience({})).map((listing) => listing.id)).toEqual(['channels']);
    expect(remotesForMenuBadges([channels], audience({ profile: 'user', allowConnections: 'disabled' }))).toEqual([]);
    const withoutRemote: PluginListing = { ...channels, remote: null, remoteName: null };
    expect(remotesForMenuBadges([withoutRemote], audience({}))).toEqual([]);
    // a plugin whose visible entries declare no badge (the kanban) loads only when visited
    const kanban: PluginListing = {
      ...channels,
      id: 'kanban',
      menu: [{ key: 'kanban', group: 'main', path: '/Kanban', label }],
    };
    expect(remotesForMenuBadges([kanban], audience({}))).toEqual([]);
  });

  it("gives a manifest entry the badge hook its plugin's UI declares for its key", () => {
    const useBadge = () => true;
    const ui = definePluginUi({
      id: 'channels',
      routes: [],
      i18n: { pt: {}, en: {}, es: {}, tr: {} },
      menuBadges: { connections: useBadge },
    });
    const before = pluginMenuEntries([channels], new Map());
    expect(before.some((entry) => 'useBadge' in entry)).toBe(false);
    const [connections, all] = pluginMenuEntries([channels], new Map([['channels', ui]])) as Array<{
      useBadge?: unknown;
      path: string;
    }>;
    expect(connections?.useBadge).toBe(useBadge);
    expect(connections?.path).toBe('/connections');
    expect(all?.useBadge).toBeUndefined();
  });
});
