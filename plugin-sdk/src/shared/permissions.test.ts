/** The permission rules of docs/product/roles-and-permissions.md#roles-in-the-inbox: the static table, the profile-user exceptions and features' permissions. */
import { describe, expect, it } from 'vitest';
import { CORE_PERMISSION_TABLE, CORE_PERMISSIONS, can, type PermissionSubject } from './permissions';

const admin: PermissionSubject = { profile: 'admin' };
const user: PermissionSubject = { profile: 'user' };
const superUser: PermissionSubject = { profile: 'user', super: true };
const everyField: PermissionSubject = {
  profile: 'user',
  showDashboard: 'enabled',
  allowRealTime: 'enabled',
  allowConnections: 'enabled',
  allUserChat: 'enabled',
};

/** The permissions a subject holds among `candidates`. */
const held = (subject: PermissionSubject, candidates: readonly string[], table = CORE_PERMISSION_TABLE) =>
  candidates.filter((permission) => can(subject, permission, table));

const SCREENS = ['management:view', 'dashboard:view', 'reports:view', 'moments:view', 'connections:view'];
const ALL = [...new Set<string>([...CORE_PERMISSIONS, ...SCREENS])];

describe('can', () => {
  it('gives admin every permission of the static table, and the user profile none', () => {
    expect(CORE_PERMISSIONS).toHaveLength(11);
    expect(held(admin, CORE_PERMISSIONS)).toEqual([...CORE_PERMISSIONS]);
    expect(held(user, ALL)).toEqual([]);
    expect(held({ ...user, showDashboard: 'disabled', allowRealTime: 'disabled', allUserChat: 'disabled' }, ALL)).toEqual([]);
  });

  it('lets a super user do whatever an admin does, whatever the profile', () => {
    expect(held(superUser, ALL)).toEqual(held(admin, ALL));
    expect(held(admin, SCREENS)).toEqual(SCREENS);
  });

  it('treats a profile user as admin where a permission field is enabled (docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
    expect(held({ ...user, showDashboard: 'enabled' }, ALL).sort()).toEqual(
      ['dashboard:view', 'management:view', 'reports:view'].sort(),
    );
    expect(held({ ...user, allowRealTime: 'enabled' }, ALL).sort()).toEqual(['management:view', 'moments:view']);
    expect(held({ ...user, allowConnections: 'enabled' }, ALL).sort()).toEqual(
      [
        'connections-page:actionButtons',
        'connections-page:addConnection',
        'connections-page:editOrDeleteConnection',
        'connections:view',
      ].sort(),
    );
    expect(held({ ...user, allUserChat: 'enabled' }, ALL)).toEqual(['tickets-manager:showall']);
  });

  it('never lets a field make a profile user an admin for the rest', () => {
    const adminOnly = [
      'drawer-admin-items:view',
      'user-modal:editProfile',
      'user-modal:editQueues',
      'ticket-options:deleteTicket',
      'contacts-page:deleteContact',
      'tickets-manager:closeAll',
    ];
    expect(held(everyField, adminOnly)).toEqual([]);
  });

  it("reads features' permissions from the merged table, and refuses permissions nobody defines", () => {
    const table = { ...CORE_PERMISSION_TABLE, 'kanban:manage': ['admin'] as const, 'chat:use': ['admin', 'user'] as const };
    expect(held(admin, ['kanban:manage', 'chat:use'], table)).toEqual(['kanban:manage', 'chat:use']);
    expect(held(user, ['kanban:manage', 'chat:use'], table)).toEqual(['chat:use']);
    expect(held(superUser, ['kanban:manage'], table)).toEqual(['kanban:manage']);
    expect(can(admin, 'kanban:manage')).toBe(false);
    expect(can(superUser, 'nobody:defines-this', table)).toBe(false);
  });
});
