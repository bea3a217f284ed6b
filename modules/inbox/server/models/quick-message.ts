import { TenantModel } from '@balcao/plugin-sdk/server';

export class QuickMessage extends TenantModel {
  static override tableName = 'quickMessages';
  declare id: number;
  declare userId: number | null;
  declare shortcode: string;
  declare message: string;
  declare geral: boolean;
  declare visao: boolean;
  declare status: boolean;
  declare isMedia: boolean;
  declare mediaPath: string | null;
  declare mediaName: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
