import { TenantModel } from '@balcao/plugin-sdk/server';

/** A file list (docs/product/automation.md "File lists"). */
export class FileList extends TenantModel {
  static override tableName = 'files';
  declare id: number;
  declare name: string;
  declare message: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One option of a file list: a name and its uploaded file (none until uploaded). */
export class FileOption extends TenantModel {
  static override tableName = 'filesOptions';
  declare id: number;
  declare fileId: number;
  declare name: string;
  declare path: string | null;
  declare originalName: string | null;
  declare mimetype: string | null;
  declare mediaType: string | null;
  declare orderOption: number;
}
