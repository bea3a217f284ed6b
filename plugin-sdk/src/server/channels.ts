/**
 * The connections contract (ARCHITECTURE §7; 2-administration §3 Connection): the channels plugin owns
 * connections and provides the `connections` service; the features whose automation depends on a
 * conversation's connection (the chatbot's greeting, queues and hours; the inbox's farewell, rating and
 * reopen window) read it with `ctx.services.has('connections')` / `use('connections')` and fall back to
 * the company's configuration when it isn't installed.
 */
import type { ConnectionProfile } from '../shared/connection-profile';

export type { ConnectionProfile };

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
