import { TenantModel } from '@balcao/plugin-sdk/server';

/**
 * A kanban lane: one of the inbox's tags with kanban = 1 (docs/product/administration.md#entities Tag). The inbox owns the
 * table and its CRUD (`/tags`); the kanban reads it and writes only ticket ↔ lane links.
 */
export class Lane extends TenantModel {
  static override tableName = 'tags';
  declare id: number;
  declare name: string;
  declare color: string;
  declare kanban: 0 | 1;
  declare timeLane: number | null;
  declare nextLaneId: number | null;
  declare greetingMessageLane: string | null;
  declare rollbackLaneId: number | null;

  /** Only kanban tags. */
  static lanes() {
    return Lane.query().where('kanban', 1);
  }
}

/** A ticket ↔ tag link of the inbox (`ticketTags`); a link to a lane puts the ticket in that lane. */
export class TicketTagLink extends TenantModel {
  static override tableName = 'ticketTags';
  static override idColumn = ['ticketId', 'tagId'];
  declare ticketId: number;
  declare tagId: number;
}
