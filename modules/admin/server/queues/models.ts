import { TenantModel } from '@balcao/plugin-sdk/server';
import type { ChatbotQueueType, ServiceHours } from '../../shared/queues';

/**
 * The `queues` table as the administration sees it: the inbox's columns plus the ones migration
 * 0002_queues_chatbot adds (service hours, out-of-hours message, rotation, integration, file list). The
 * inbox maps the same table with its own, smaller `Queue` model.
 */
export class AdminQueue extends TenantModel {
  static override tableName = 'queues';
  static override jsonAttributes = ['schedules'];
  declare id: number;
  declare name: string;
  declare color: string;
  declare greetingMessage: string | null;
  declare orderQueue: number | null;
  declare outOfHoursMessage: string | null;
  declare tempoRoteador: number;
  declare ativarRoteador: boolean;
  declare integrationId: number | null;
  declare fileListId: number | null;
  declare closeTicket: boolean;
  declare schedules: ServiceHours[];
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One chatbot option of a queue (docs/product/administration.md#entities Chatbot option); `chatbotId` is its parent option. */
export class Chatbot extends TenantModel {
  static override tableName = 'chatbots';
  declare id: number;
  declare queueId: number;
  declare chatbotId: number | null;
  declare name: string;
  declare greetingMessage: string;
  declare queueType: ChatbotQueueType;
  declare optQueueId: number | null;
  declare optUserId: number | null;
  declare optIntegrationId: number | null;
  declare optFileId: number | null;
  declare closeTicket: boolean;
  declare orderOption: number;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A company's service hours and the bot's company-wide greeting and limits (one row per company). */
export class CompanyServiceHours extends TenantModel {
  static override tableName = 'companyServiceHours';
  static override idColumn = 'companyId';
  static override jsonAttributes = ['schedules'];
  declare schedules: ServiceHours[];
  declare outOfHoursMessage: string;
  declare greetingMessage: string;
  declare maxUseBotQueues: number;
  declare timeUseBotQueues: number;
  declare updatedAt: Date;
}

/** Where the chatbot is in one ticket's conversation. */
export class ChatbotTicket extends TenantModel {
  static override tableName = 'chatbotTickets';
  static override idColumn = 'ticketId';
  declare ticketId: number;
  declare stage: 'queues' | 'options' | 'done';
  declare queueId: number | null;
  declare chatbotId: number | null;
  declare startedAt: Date;
  declare outOfHoursSentAt: Date | null;
  declare rotationStep: number;
  declare updatedAt: Date;
}
