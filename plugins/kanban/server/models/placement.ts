import { TenantModel } from '@balcao/plugin-sdk/server';

/** A ticket's stay in a lane (see the migration). */
export class Placement extends TenantModel {
  static override tableName = 'kanbanPlacements';
  static override idColumn = 'ticketId';
  declare ticketId: number;
  declare laneId: number;
  declare enteredAt: Date;
  declare entryId: string;
}
