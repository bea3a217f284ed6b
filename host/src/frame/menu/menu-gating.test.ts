import { CORE_PERMISSION_TABLE, type PermissionSubject, PLAN_FLAGS, type PlanFlags } from '@balcao/plugin-sdk/ui';
import { describe, expect, it } from 'vitest';
import { buildMenuSections, type GateableMenuEntry, isMenuEntryVisible, selectedMenuKey } from './menu-gating';

const label = (text: string) => ({ pt: text, en: text, es: text, tr: text });
const entry = (path: string, group: GateableMenuEntry['group'], extra: Partial<GateableMenuEntry> = {}): GateableMenuEntry => ({
  key: path.slice(1) || 'root',
  path,
  group,
  label: label(path),
  ...extra,
});

const allFlags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, true])) as PlanFlags;
const noFlags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false])) as PlanFlags;
const admin: PermissionSubject = { profile: 'admin' };
const agent: PermissionSubject = {
  profile: 'user',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
};
const superUser: PermissionSubject = { profile: 'admin', super: true };
const audience = (user: PermissionSubject, plan: PlanFlags | undefined = allFlags) => ({
  user,
  plan,
  table: CORE_PERMISSION_TABLE,
});

// The menu of docs/product/tickets-and-inbox.md#side-menu, declared as features declare their entries.
const MENU: GateableMenuEntry[] = [
  entry('/', 'management', { permission: 'dashboard:view', order: 1 }),
  entry('/reports', 'management', { permission: 'reports:view', order: 2 }),
  entry('/moments', 'management', { permission: 'moments:view', order: 3 }),
  entry('/tickets', 'main', { order: 1 }),
  entry('/Kanban', 'main', { planFlag: 'useKanban', order: 3 }),
  entry('/schedules', 'main', { planFlag: 'useSchedules', order: 5 }),
  entry('/campaigns', 'admin', { planFlag: 'useCampaigns', order: 1 }),
  entry('/announcements', 'admin', { superOnly: true, order: 3 }),
  entry('/users', 'admin', { order: 5 }),
  entry('/connections', 'admin', { permission: 'connections:view', order: 9 }),
  entry('/companies', 'admin', { superOnly: true, order: 20 }),
];

const paths = (sections: ReturnType<typeof buildMenuSections>) =>
  Object.fromEntries(sections.map((section) => [section.group, section.entries.map((item) => item.path)]));

describe('side-menu gating (docs/product/tickets-and-inbox.md#screens-and-routes and docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  it('shows an admin the three groups, without the super-only entries', () => {
    expect(paths(buildMenuSections(MENU, audience(admin), 'pt'))).toEqual({
      management: ['/', '/reports', '/moments'],
      main: ['/tickets', '/Kanban', '/schedules'],
      admin: ['/campaigns', '/users', '/connections'],
    });
  });

  it('shows the super user the super-only entries too', () => {
    expect(paths(buildMenuSections(MENU, audience(superUser), 'pt')).admin).toEqual([
      '/campaigns',
      '/announcements',
      '/users',
      '/connections',
      '/companies',
    ]);
  });

  it('shows a profile user only the main group', () => {
    expect(paths(buildMenuSections(MENU, audience(agent), 'pt'))).toEqual({ main: ['/tickets', '/Kanban', '/schedules'] });
  });

  it('hides plan-gated entries without the flag, and while the plan loads', () => {
    expect(paths(buildMenuSections(MENU, audience(admin, noFlags), 'pt')).main).toEqual(['/tickets']);
    expect(paths(buildMenuSections(MENU, { ...audience(admin), plan: undefined }, 'pt')).admin).toEqual([
      '/users',
      '/connections',
    ]);
  });

  it('applies the profile-user exceptions: showDashboard, allowRealTime, allowConnections', () => {
    expect(paths(buildMenuSections(MENU, audience({ ...agent, showDashboard: 'enabled' }), 'pt')).management).toEqual([
      '/',
      '/reports',
    ]);
    expect(paths(buildMenuSections(MENU, audience({ ...agent, allowRealTime: 'enabled' }), 'pt')).management).toEqual([
      '/moments',
    ]);
    expect(paths(buildMenuSections(MENU, audience({ ...agent, allowConnections: 'enabled' }), 'pt')).admin).toEqual([
      '/connections',
    ]);
  });

  it('gates entries of plugins by their own permission', () => {
    const hello = entry('/hello', 'main', { permission: 'hello:view' });
    expect(isMenuEntryVisible(hello, audience(admin))).toBe(false);
    expect(isMenuEntryVisible(hello, { ...audience(agent), table: { 'hello:view': ['user'] } })).toBe(true);
  });

  it('sorts by order, then by label in the language, and keeps the first entry of a path', () => {
    const entries = [
      entry('/b', 'main', { label: { pt: 'Zebra', en: 'Apple', es: 'Zebra', tr: 'Zebra' } }),
      entry('/a', 'main', { label: { pt: 'Abelha', en: 'Zoo', es: 'Abelha', tr: 'Abelha' } }),
      entry('/first', 'main', { order: 0 }),
      entry('/a', 'main', { label: label('duplicate') }),
    ];
    expect(paths(buildMenuSections(entries, audience(agent), 'pt')).main).toEqual(['/first', '/a', '/b']);
    expect(paths(buildMenuSections(entries, audience(agent), 'en')).main).toEqual(['/first', '/b', '/a']);
  });
});

describe('selected menu entry', () => {
  it('matches the longest path prefix, and / only exactly', () => {
    const menuPaths = ['/', '/tickets', '/tickets/archive', '/hello'];
    expect(selectedMenuKey(menuPaths, '/')).toBe('/');
    expect(selectedMenuKey(menuPaths, '/tickets/123')).toBe('/tickets');
    expect(selectedMenuKey(menuPaths, '/tickets/archive/9')).toBe('/tickets/archive');
    expect(selectedMenuKey(menuPaths, '/helloworld')).toBeUndefined();
    expect(selectedMenuKey(menuPaths, '/unknown')).toBeUndefined();
  });
});
