import type { ConnectionProfile, PluginContext } from '@balcao/plugin-sdk/server';
import type { companyHours } from '../services/company-hours.service';

/**
 * What the chatbot follows on one ticket: its connection (docs/product/administration.md#entities Connection) when the
 * channels plugin provides the `connections` service and the ticket's connection exists, else the
 * company's bot settings (`companyServiceHours`), as before connections existed.
 */
export interface ConversationConfig {
  /** The ticket's connection, or null (no `connections` service, or the connection is gone). */
  profile: ConnectionProfile | null;
  /** The intro of the queue menu. */
  greetingMessage: string;
  /** Menus a ticket may get (0: no limit). */
  maxUseBotQueues: number;
  /** Minutes the bot may keep asking after its first menu (0: no limit). */
  timeUseBotQueues: number;
  /** The queues the menu offers, in menu order; null: every queue of the company. */
  queueIds: number[] | null;
}

type CompanyBotSettings = Awaited<ReturnType<typeof companyHours>>;

/** The connection of a ticket, when the channels plugin is there to tell it. */
export async function connectionProfile(
  ctx: PluginContext,
  companyId: number,
  connectionId: number | null | undefined,
): Promise<ConnectionProfile | null> {
  if (!connectionId || !ctx.services.has('connections')) return null;
  return ctx.services.use('connections').profile(companyId, connectionId);
}

/**
 * The connection's greeting, limits and queues over the company's. A connection without a greeting (it
 * needs one only with more than one queue: ERR_WAPP_GREETING_REQUIRED) keeps the company's; one without
 * queues offers every queue of the company.
 */
export function conversationConfig(profile: ConnectionProfile | null, company: CompanyBotSettings): ConversationConfig {
  if (!profile) {
    return {
      profile: null,
      greetingMessage: company.greetingMessage,
      maxUseBotQueues: company.maxUseBotQueues,
      timeUseBotQueues: company.timeUseBotQueues,
      queueIds: null,
    };
  }
  return {
    profile,
    greetingMessage: profile.greetingMessage.trim() !== '' ? profile.greetingMessage : company.greetingMessage,
    maxUseBotQueues: profile.maxUseBotQueues,
    timeUseBotQueues: profile.timeUseBotQueues,
    queueIds: profile.queueIds.length > 0 ? profile.queueIds : null,
  };
}
