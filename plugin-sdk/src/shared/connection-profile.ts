/**
 * A connection's configuration as the automation of its conversations reads it (docs/product/administration.md#entities
 * Connection): the `connections` service's answer (plugin-sdk/src/server/connections.ts) and the base of the
 * channels plugin's API shape.
 */
import type { ServiceHours } from './service-hours';

/** A connection's configuration as automation reads it. Times are minutes (0: off). */
export interface ConnectionProfile {
  id: number;
  companyId: number;
  name: string;
  /** `whatsapp`, `whatsappapi`, `facebook`, `instagram`, `webchat`. */
  channel: string;
  status: string;
  isDefault: boolean;
  allowGroup: boolean;
  groupAsTicket: 'disabled' | 'enabled';
  greetingMessage: string;
  /** The farewell sent when a ticket is resolved with a farewell and the agent has none of their own. */
  complationMessage: string;
  /** Sent when the contact writes outside the connection's hours (scheduleType `connection`). */
  outOfHoursMessage: string;
  /** Asks for the NPS rating (0–10) on close, when the company's userRating setting is on. */
  ratingMessage: string;
  collectiveVacationMessage: string;
  /** ISO dates (YYYY-MM-DD), both days included; null when no vacation is set. */
  collectiveVacationStart: string | null;
  collectiveVacationEnd: string | null;
  maxUseBotQueues: number;
  timeUseBotQueues: number;
  maxUseBotQueuesNPS: number;
  expiresTicket: number;
  whenExpiresTicket: 0 | 1;
  expiresTicketNPS: number;
  expiresInactiveMessage: string;
  timeInactiveMessage: number;
  inactiveMessage: string;
  timeCreateNewTicket: number;
  timeSendQueue: number;
  sendIdQueue: number | null;
  /** The connection's queues in menu order; empty: every queue of the company. */
  queueIds: number[];
  schedules: ServiceHours[];
  lgpdMessage: string;
  integrationId: number | null;
  promptId: number | null;
  /**
   * The flows that answer this connection's new conversations (the flow builder's welcome and not-phrase
   * flows); while either is set, the queue's chatbot leaves new conversations to them.
   */
  flowIdWelcome: number | null;
  flowIdNotPhrase: number | null;
}
