import { TenantModel } from '@balcao/plugin-sdk/server';

/**
 * A row of the core's `users` table (server/src/db/migrations/0001_tenancy.ts), scoped to the tenant.
 * The administration reads and writes it; the core keeps the table and the session built from it.
 */
export class User extends TenantModel {
  static override tableName = 'users';
  declare id: number;
  declare name: string;
  declare email: string;
  declare passwordHash: string;
  declare profile: 'admin' | 'user';
  declare super: boolean;
  declare profileImage: string | null;
  declare whatsappId: number | null;
  declare startWork: string;
  declare endWork: string;
  declare farewellMessage: string | null;
  declare allTicket: 'enable' | 'disable';
  declare allowGroup: boolean;
  declare defaultTheme: 'light' | 'dark';
  declare defaultMenu: 'open' | 'closed';
  declare allHistoric: 'enabled' | 'disabled';
  declare allUserChat: 'enabled' | 'disabled';
  declare userClosePendingTicket: 'enabled' | 'disabled';
  declare showDashboard: 'enabled' | 'disabled';
  declare allowRealTime: 'enabled' | 'disabled';
  declare allowConnections: 'enabled' | 'disabled';
  declare defaultTicketsManagerWidth: number;
  declare online: boolean;
  declare createdAt: Date;
  declare updatedAt: Date;
}
