import { type BalcaoEvents, type EventBus, type EventHandler, runInTenant } from '@balcao/plugin-sdk/server';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The in-process typed event bus. Each handler runs in the payload's company scope; a failing handler
 * is logged and never breaks the publisher or the other handlers.
 */
export class EventBusImpl implements EventBus {
  private readonly handlers = new Map<string, Set<(payload: never) => void | Promise<void>>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  on<E extends keyof BalcaoEvents>(event: E, handler: EventHandler<E>): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    const entry = handler as (payload: never) => void | Promise<void>;
    set.add(entry);
    return () => set.delete(entry);
  }

  async publish<E extends keyof BalcaoEvents>(event: E, payload: BalcaoEvents[E]): Promise<void> {
    const set = this.handlers.get(event);
    if (!set || set.size === 0) return;
    const companyId = (payload as { companyId?: number }).companyId;
    await Promise.all(
      [...set].map(async (handler) => {
        try {
          const run = () => (handler as EventHandler<E>)(payload);
          await (typeof companyId === 'number' ? runInTenant({ companyId }, run) : run());
        } catch (error) {
          this.log.error({ err: error, event }, 'event handler failed');
        }
      }),
    );
  }
}
