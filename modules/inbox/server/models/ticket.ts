import { TenantModel } from '@balcao/plugin-sdk/server';
import type { Channel, TicketLogType, TicketStatus } from '../../shared/types';

export class Ticket extends TenantModel {
  static override tableName = 'tickets';
  declare id: number;
  declare uuid: string;
  declare status: TicketStatus;
  declare contactId: number;
  declare userId: number | null;
  declare queueId: number | null;
  declare whatsappId: number | null;
  declare channel: Channel;
  declare isGroup: boolean;
  declare isBot: boolean;
  declare unreadMessages: number;
  declare lastMessage: string;
  declare useIntegration: boolean;
  declare integrationId: number | null;
  declare amountUsedBotQueues: number;
  declare closedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class TicketLog extends TenantModel {
  static override tableName = 'ticketLogs';
  declare id: number;
  declare ticketId: number;
  declare type: TicketLogType;
  declare userId: number | null;
  declare queueId: number | null;
  declare createdAt: Date;
}

export class TicketNote extends TenantModel {
  static override tableName = 'ticketNotes';
  declare id: number;
  declare ticketId: number;
  declare contactId: number;
  declare userId: number | null;
  declare note: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export class TicketRating extends TenantModel {
  static override tableName = 'ticketRatings';
  declare id: number;
  declare ticketId: number;
  declare userId: number | null;
  declare rate: number;
}
