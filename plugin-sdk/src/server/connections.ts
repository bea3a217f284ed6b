/**
 * The connections contract (docs/architecture.md#the-channels-plugin; docs/product/administration.md#entities Connection): the channels plugin owns
 * connections and provides the `connections` service; the features whose automation depends on a
 * conversation's connection (the chatbot's greeting, queues and hours; the inbox's farewell, rating and
 * reopen window) read it with `ctx.services.has('connections')` / `use('connections')` and fall back to
 * the company's configuration when it isn't installed.
 */
import type { ConnectionProfile } from '../shared/connection-profile';
import type { PlanFlag } from '../shared/plan-flags';

export type { ConnectionProfile };

/**
 * The plan flag a channel's connections need (webchat none: every plan may put a chat on its own site).
 * The channels plugin checks it when a connection is created or started; the inbox when a ticket is
 * opened on a connection, so a plan without the flag can't reach the channel by naming a connection.
 */
export const CHANNEL_PLAN_FLAGS: Readonly<Record<string, PlanFlag | null>> = {
  whatsapp: 'useWhatsapp',
  whatsappapi: 'useWhatsapp',
  facebook: 'useFacebook',
  instagram: 'useInstagram',
  webchat: null,
};

export interface ConnectionsService {
  /**
   * The connection's configuration in the caller's company (the caller's tenant scope or `companyId`), or
   * null when it doesn't exist (deleted). Cached per process for a few seconds and dropped on change.
   */
  profile(companyId: number, whatsappId: number): Promise<ConnectionProfile | null>;
  /** Whether the company has any connection of a channel its plan allows (a new ticket then needs one). */
  hasAny(companyId: number): Promise<boolean>;
  /**
   * The connection a connection token names, of any company (the token is a credential: the message API
   * authenticates with it), or null when no connection has it.
   */
  byToken(token: string): Promise<{ companyId: number; whatsappId: number } | null>;
}

declare module './events' {
  interface BalcaoServices {
    connections: ConnectionsService;
  }
}
