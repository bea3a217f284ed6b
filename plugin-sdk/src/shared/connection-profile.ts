/**
 * A connection's configuration as the automation of its conversations reads it (2-administration §3
 * Connection): the `connections` service's answer (plugin-sdk/src/server/channels.ts) and the base of the
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
}

/** The languages the product's default customer texts come in (the interface's). */
export type CustomerTextLanguage = 'pt' | 'en' | 'es' | 'tr';

/**
 * What the product tells a customer when the connection leaves a text empty: the farewell on closing (so
 * closing always tells the visitor something) and the rating question (so turning ratings on in Settings
 * works without filling the connection first). Keyed by language; Portuguese is the default.
 */
export const DEFAULT_CUSTOMER_TEXTS: Record<CustomerTextLanguage, { farewell: string; rating: string }> = {
  pt: {
    farewell: 'Atendimento encerrado. Obrigado pelo contato! Se precisar, é só nos escrever de novo.',
    rating: 'Como você avalia o nosso atendimento?',
  },
  en: {
    farewell: 'This conversation is now closed. Thank you for getting in touch! Write to us again any time.',
    rating: 'How would you rate our service?',
  },
  es: {
    farewell: 'Atención finalizada. ¡Gracias por contactarnos! Si lo necesita, escríbanos de nuevo.',
    rating: '¿Cómo califica nuestra atención?',
  },
  tr: {
    farewell: 'Görüşme sonlandı. Bize ulaştığınız için teşekkürler! İhtiyacınız olursa yeniden yazabilirsiniz.',
    rating: 'Hizmetimizi nasıl değerlendirirsiniz?',
  },
};

/**
 * The default customer texts for a language tag or an `Accept-Language` header (`en-US,en;q=0.9` → en);
 * Portuguese for anything else or nothing.
 */
export function defaultCustomerTexts(language?: string | null): { farewell: string; rating: string } {
  for (const part of (language ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (tag in DEFAULT_CUSTOMER_TEXTS) return DEFAULT_CUSTOMER_TEXTS[tag as CustomerTextLanguage];
  }
  return DEFAULT_CUSTOMER_TEXTS.pt;
}
