import { TenantModel } from '@balcao/plugin-sdk/server';

/** A note of one company: every query is scoped to the current company by `TenantModel`. */
export class Note extends TenantModel {
  static override tableName = '__CAMEL__Notes';
  declare id: number;
  declare text: string;
  declare reviewed: boolean;
}
