/**
 * Shapes of the queues area shared by the server and the screens (type-only imports from the UI): the
 * API's queue, chatbot option and service hours (2-administration §3).
 */

/** What a chatbot option does when chosen (2-administration §3 Chatbot option). */
export const CHATBOT_QUEUE_TYPES = ['text', 'attendent', 'queue', 'integration', 'file'] as const;
export type ChatbotQueueType = (typeof CHATBOT_QUEUE_TYPES)[number];

/** One weekday of service hours: two shifts (A and B), times HH:MM; an empty shift is closed. */
export interface ServiceHours {
  weekday: string;
  weekdayEn: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  startTimeA: string;
  endTimeA: string;
  startTimeB: string;
  endTimeB: string;
}

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

export const WEEKDAYS_EN: ServiceHours['weekdayEn'][] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

/** Portuguese weekday names, as the spec's `weekday` field carries them. */
export const WEEKDAYS_PT = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];

/** The default service hours (2-administration §9): 08:00–12:00 and 13:00–18:00 every day. */
export function defaultSchedules(): ServiceHours[] {
  return WEEKDAYS_EN.map((weekdayEn, index) => ({
    weekday: WEEKDAYS_PT[index] as string,
    weekdayEn,
    startTimeA: '08:00',
    endTimeA: '12:00',
    startTimeB: '13:00',
    endTimeB: '18:00',
  }));
}

/** Rotation time choices in minutes (2-administration §9; 0 is "none"). */
export const ROTATION_MINUTES = [0, 2, 5, 10, 15, 30, 45, 60] as const;
