import { BaseModel, type PlanFlag, TenantModel, type Toggle } from '@balcao/plugin-sdk/server';

/** A subscription plan (2-administration §3 Plan). Platform-wide: not a tenant table. */
export class Plan extends BaseModel {
  static override tableName = 'plans';
  declare id: number;
  declare name: string;
  declare users: number;
  declare connections: number;
  declare queues: number;
  declare amount: string;
  declare isPublic: boolean;
  declare useWhatsapp: boolean;
  declare useFacebook: boolean;
  declare useInstagram: boolean;
  declare useCampaigns: boolean;
  declare useKanban: boolean;
  declare useOpenAi: boolean;
  declare useIntegrations: boolean;
  declare useSchedules: boolean;
  declare useInternalChat: boolean;
  declare useExternalApi: boolean;
  declare createdAt: Date;
  declare updatedAt: Date;

  flag(flag: PlanFlag): boolean {
    return this[flag] === true;
  }
}

/** A company (tenant). The row itself is the tenant root; routes reach other companies only as super. */
export class Company extends BaseModel {
  static override tableName = 'companies';
  declare id: number;
  declare name: string;
  declare email: string | null;
  declare phone: string | null;
  declare document: string | null;
  declare planId: number;
  declare status: boolean;
  /** YYYY-MM-DD. */
  declare dueDate: string;
  declare recurrence: string;
  declare lastLogin: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
  declare plan?: Plan;

  static override get relationMappings() {
    return {
      plan: { relation: BaseModel.BelongsToOneRelation, modelClass: Plan, join: { from: 'companies.planId', to: 'plans.id' } },
    };
  }
}

/** A user of a company (1-core §3 User). */
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

/** A company setting (key/value). */
export class Setting extends TenantModel {
  static override tableName = 'settings';
  declare id: number;
  declare key: string;
  declare value: string;
}

/** One refresh token of a rotation family. Only a hash of its secret is stored. */
export class RefreshToken extends TenantModel {
  static override tableName = 'refreshTokens';
  declare id: string;
  declare familyId: string;
  declare userId: number;
  declare tokenHash: string;
  declare persistent: boolean;
  declare expiresAt: Date;
  declare usedAt: Date | null;
  declare revokedAt: Date | null;
  declare createdAt: Date;
}
