import { TenantModel } from '@balcao/plugin-sdk/server';

export class Tag extends TenantModel {
  static override tableName = 'tags';
  declare id: number;
  declare name: string;
  declare color: string;
  declare kanban: 0 | 1;
  declare userId: number | null;
  declare timeLane: number | null;
  declare nextLaneId: number | null;
  declare greetingMessageLane: string | null;
  declare rollbackLaneId: number | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class ContactTag extends TenantModel {
  static override tableName = 'contactTags';
  static override idColumn = ['contactId', 'tagId'];
  declare contactId: number;
  declare tagId: number;
}

export class TicketTag extends TenantModel {
  static override tableName = 'ticketTags';
  static override idColumn = ['ticketId', 'tagId'];
  declare ticketId: number;
  declare tagId: number;
}
