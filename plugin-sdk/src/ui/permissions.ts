import { CORE_PERMISSION_TABLE, type PermissionTable } from '../shared/permissions';

let table: PermissionTable = { ...CORE_PERMISSION_TABLE };

/** The permission table the UI gates with: the core's, plus what features registered. */
export function permissionTable(): PermissionTable {
  return table;
}

/** Adds a feature's permissions (`{ 'kanban:manage': ['admin'] }`) to the table the UI gates with. */
export function registerPermissions(extra: PermissionTable): void {
  table = { ...table, ...extra };
}
