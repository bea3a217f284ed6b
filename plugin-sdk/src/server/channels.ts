/**
 * The connections contract (ARCHITECTURE §7; 2-administration §3 Connection): the channels plugin owns
 * connections and provides the `connections` service; the features whose automation depends on a
 * conversation's connection (the chatbot's greeting, queues and hours; the inbox's farewell, rating and
 * reopen window) read it with `ctx.services.has('connections')` / `use('connections')` and fall back to
 * the company's configuration when it isn't installed.
 */
import type { ServiceHours } from '../shared/service-hours';

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
}

export interface ConnectionsService {
  /**
   * The connection's configuration in the caller's company (the caller's tenant scope or `companyId`), or
   * null when it doesn't exist (deleted). Cached per process for a few seconds and dropped on change.
   */
  profile(companyId: number, whatsappId: number): Promise<ConnectionProfile | null>;
}

declare module './events' {
  interface BalcaoServices {
    connections: ConnectionsService;
  }
}
