/**
 * The typed event bus's catalogue. Features add their events by declaration merging:
 *
 * ```ts
 * declare module '@balcao/plugin-sdk/server' {
 *   interface BalcaoEvents { 'ticket.updated': { companyId: number; ticketId: number } }
 * }
 * ```
 * Every payload carries `companyId`: handlers run inside that company's tenant scope.
 */
export interface BalcaoEvents {
  'company.updated': { companyId: number };
  'user.updated': { companyId: number; userId: number };
  'settings.updated': { companyId: number; key: string; value: string };
}

/** A handler of one event. */
export type EventHandler<E extends keyof BalcaoEvents> = (payload: BalcaoEvents[E]) => void | Promise<void>;

/** The event bus as features see it. */
export interface EventBus {
  /** Publishes an event; resolves once every handler in this process has run (their errors are logged). */
  publish<E extends keyof BalcaoEvents>(event: E, payload: BalcaoEvents[E]): Promise<void>;
  /** Subscribes a handler; returns the unsubscribe function. */
  on<E extends keyof BalcaoEvents>(event: E, handler: EventHandler<E>): () => void;
}

/**
 * Services a feature publishes for others (for example `inbox`), by declaration merging; reached with
 * `ctx.services.use('inbox')`, never by importing the other feature's files.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface BalcaoServices {}
