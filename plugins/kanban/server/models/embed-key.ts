import { TenantModel } from '@balcao/plugin-sdk/server';

/** An embed key of the kanban widget (docs/kanban.md). */
export class EmbedKey extends TenantModel {
  static override tableName = 'kanbanEmbedKeys';
  static override jsonAttributes = ['allowedOrigins', 'laneIds'];
  declare id: number;
  declare name: string;
  declare key: string;
  declare secret: string;
  declare allowedOrigins: string[];
  declare mayMove: boolean;
  declare signedUsers: boolean;
  declare laneIds: number[] | null;
  declare revokedAt: Date | null;
  declare lastUsedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
