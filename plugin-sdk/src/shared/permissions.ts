/**
 * Roles and permissions of docs/product/roles-and-permissions.md#roles-in-the-inbox, as data plus one function, shared by the server (which enforces)
 * and the UI (which hides what the user can't use).
 */

/** A user's profile. The super flag is separate and orthogonal. */
export type Profile = 'admin' | 'user';

/** The static permissions of docs/product/roles-and-permissions.md#roles-in-the-inbox. Features may add their own through `definePlugin({ permissions })`. */
export const CORE_PERMISSIONS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
  'tickets-manager:closeAll',
] as const;

/** A permission name, core or contributed by a feature (`feature:action`). */
export type Permission = (typeof CORE_PERMISSIONS)[number] | (string & {});

/** Which profiles hold each permission. The profile `user` holds nothing in the static table. */
export type PermissionTable = Record<string, readonly Profile[]>;

/** The static table of docs/product/roles-and-permissions.md#roles-in-the-inbox: admin holds every core permission, user none. */
export const CORE_PERMISSION_TABLE: PermissionTable = Object.fromEntries(
  CORE_PERMISSIONS.map((permission) => [permission, ['admin'] as const]),
);

/** The user fields the permission rules read. `enabled`/`disabled` strings follow the documented user form. */
export interface PermissionSubject {
  profile: Profile;
  super?: boolean;
  showDashboard?: Toggle;
  allowRealTime?: Toggle;
  allowConnections?: Toggle;
  allUserChat?: Toggle;
}

/** Most user permission fields are `enabled` / `disabled` strings (docs/product/tickets-and-inbox.md#entities). */
export type Toggle = 'enabled' | 'disabled';

/**
 * The profile-user exceptions of docs/product/roles-and-permissions.md#roles-in-the-inbox: permissions a user with profile `user` holds because one of
 * their permission fields is enabled. Each entry: the field, and the permissions it grants.
 */
export const PROFILE_USER_EXCEPTIONS: ReadonlyArray<{
  field: 'showDashboard' | 'allowRealTime' | 'allowConnections' | 'allUserChat';
  grants: readonly Permission[];
}> = [
  { field: 'showDashboard', grants: ['dashboard:view', 'reports:view', 'management:view'] },
  { field: 'allowRealTime', grants: ['moments:view', 'management:view'] },
  {
    field: 'allowConnections',
    grants: [
      'connections:view',
      'connections-page:actionButtons',
      'connections-page:addConnection',
      'connections-page:editOrDeleteConnection',
    ],
  },
  { field: 'allUserChat', grants: ['tickets-manager:showall'] },
];

/** Permissions that no static row names but that admins hold because they are admins. */
const ADMIN_IMPLIED: readonly Permission[] = ['reports:view', 'management:view', 'moments:view', 'connections:view'];

/**
 * Whether `subject` holds `permission`, given the permission table (the core's merged with every
 * feature's). Super users hold everything an admin holds; profile users hold the exceptions above.
 */
export function can(subject: PermissionSubject, permission: Permission, table: PermissionTable = CORE_PERMISSION_TABLE): boolean {
  const isAdmin = subject.profile === 'admin' || subject.super === true;
  const holders = table[permission];
  if (holders?.includes(subject.profile)) return true;
  if (isAdmin && (holders?.includes('admin') || ADMIN_IMPLIED.includes(permission))) return true;
  if (subject.profile === 'user') {
    for (const exception of PROFILE_USER_EXCEPTIONS) {
      if (subject[exception.field] === 'enabled' && exception.grants.includes(permission)) return true;
    }
  }
  return false;
}
