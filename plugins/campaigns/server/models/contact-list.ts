import { TenantModel } from '@balcao/plugin-sdk/server';

/** A contact list (docs/product/automation.md#entities): the recipients a campaign can send to. */
export class ContactList extends TenantModel {
  static override tableName = 'contactLists';
  declare id: number;
  declare name: string;
  declare whatsappId: number | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One recipient of a contact list; `number` is normalised (digits, country code first). */
export class ContactListItem extends TenantModel {
  static override tableName = 'contactListItems';
  declare id: number;
  declare contactListId: number;
  declare name: string;
  declare number: string;
  declare email: string | null;
  declare isWhatsappValid: boolean | null;
  declare checkedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A spreadsheet import into a list, with its progress and outcome. */
export class ContactListImport extends TenantModel {
  static override tableName = 'contactListImports';
  static override jsonAttributes = ['refusedRows'];
  declare id: number;
  declare contactListId: number;
  declare fileName: string;
  declare storageKey: string;
  declare format: 'xlsx' | 'xls' | 'csv';
  declare status: 'queued' | 'running' | 'done' | 'failed';
  declare progress: number;
  declare rows: number;
  declare added: number;
  declare updated: number;
  declare refused: number;
  declare refusedRows: Array<{ row: number; reason: string }>;
  declare error: string | null;
  declare heartbeatAt: Date | null;
  declare finishedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
