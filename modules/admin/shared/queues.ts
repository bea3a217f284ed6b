/**
 * Shapes of the queues area shared by the server and the screens (type-only imports from the UI): the
 * API's queue, chatbot option and service hours (docs/product/administration.md#entities).
 */

import type { ServiceHours } from '@balcao/plugin-sdk/shared';

export { defaultSchedules, type ServiceHours, WEEKDAYS_EN, WEEKDAYS_PT } from '@balcao/plugin-sdk/shared';

/** What a chatbot option does when chosen (docs/product/administration.md#entities Chatbot option). */
export const CHATBOT_QUEUE_TYPES = ['text', 'attendent', 'queue', 'integration', 'file'] as const;
export type ChatbotQueueType = (typeof CHATBOT_QUEUE_TYPES)[number];

/** A chatbot option as the API answers it, with its nested options. */
export interface ChatbotOption {
  id: number;
  queueId: number;
  /** The parent option; null for a root option of the queue. */
  chatbotId: number | null;
  name: string;
  greetingMessage: string;
  queueType: ChatbotQueueType;
  optQueueId: number | null;
  optUserId: number | null;
  optIntegrationId: number | null;
  optFileId: number | null;
  closeTicket: boolean;
  options: ChatbotOption[];
}

/** A queue as the administration answers it (`GET /queue/:queueId`). */
export interface AdminQueueShape {
  id: number;
  name: string;
  color: string;
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  tempoRoteador: number;
  ativarRoteador: boolean;
  integrationId: number | null;
  fileListId: number | null;
  closeTicket: boolean;
  schedules: ServiceHours[];
  chatbots: ChatbotOption[];
}

/** The company's service hours (`GET/PUT /companies/:companyId/schedules`). */
export interface CompanySchedulesShape {
  schedules: ServiceHours[];
  outOfHoursMessage: string;
}

/** Rotation time choices in minutes (docs/product/administration.md#constants-and-limits; 0 is "none"). */
export const ROTATION_MINUTES = [0, 2, 5, 10, 15, 30, 45, 60] as const;
