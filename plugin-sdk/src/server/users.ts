import type { Toggle } from '../shared/permissions';
import { TenantModel } from './tenancy';

/**
 * A row of the core's `users` table, scoped to the tenant: the one model of it that the core (sessions,
 * logins) and the features (the administration's team, which reads and writes users) share, so the two can't
 * drift apart (docs/product/tickets-and-inbox.md#entities User).
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
  declare allHistoric: Toggle;
  declare allUserChat: Toggle;
  declare userClosePendingTicket: Toggle;
  declare showDashboard: Toggle;
  declare allowRealTime: Toggle;
  declare allowConnections: Toggle;
  declare defaultTicketsManagerWidth: number;
  declare online: boolean;
  declare lastSeenAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
