import { type PluginContext, StatementBatcher } from '@balcao/plugin-sdk/server';

/** One event for the outbox: a row is written for each of the company's active endpoints subscribed to it. */
export interface OutboxEvent {
  companyId: number;
  event: string;
  data: Record<string, unknown>;
  occurredAt: Date;
}

/** The dispatchers' wake-up topic: deliveries were just written (any process). */
export const WAKE_TOPIC = 'wake';

/**
 * Writes events to the outbox. Handlers of the inbox's events run inside its receive path, so each event
 * costs exactly one statement there, shared with every event arriving meanwhile (StatementBatcher): the
 * subscribed endpoints are found by the insert itself (`INSERT … SELECT … JOIN webhook_endpoints`), and
 * nothing is sent or read on that path. A company without a subscribed endpoint inserts no row.
 */
class Outbox {
  private lastWake = 0;
  readonly batcher: StatementBatcher<OutboxEvent, number>;

  constructor(private readonly ctx: PluginContext) {
    this.batcher = new StatementBatcher<OutboxEvent, number>({
      runOne: async (item) => (await this.insert([item]))[0] ?? 0,
      runMany: (items) => this.insert(items),
      conflicts: () => false,
      maxInFlight: 2,
      maxBatch: 200,
    });
  }

  async write(event: OutboxEvent): Promise<number> {
    const written = await this.batcher.submit(event);
    if (written > 0) this.wake();
    return written;
  }

  /** Answers, for each event, how many deliveries its statement made (the batch's, all events together). */
  private async insert(items: OutboxEvent[]): Promise<number[]> {
    const result = (await this.ctx.db.knex.raw(
      `INSERT INTO webhook_deliveries (company_id, endpoint_id, event, data, occurred_at, next_attempt_at)
       SELECT e.company_id, e.id, x.event, x.data, x.occurred_at, x.occurred_at
       FROM unnest(?::int[], ?::text[], ?::jsonb[], ?::timestamptz[]) AS x(company_id, event, data, occurred_at)
       JOIN webhook_endpoints e ON e.company_id = x.company_id AND e.active AND x.event = ANY(e.events)`,
      [
        items.map((item) => item.companyId),
        items.map((item) => item.event),
        items.map((item) => JSON.stringify(item.data)),
        items.map((item) => item.occurredAt),
      ],
    )) as { rowCount: number | null };
    return items.map(() => result.rowCount ?? 0);
  }

  /** Tells every process's dispatcher, at most every 50 ms per process (a busy inbox writes many batches). */
  private wake(): void {
    const now = Date.now();
    if (now - this.lastWake < 50) return;
    this.lastWake = now;
    void this.ctx.broadcast
      .publish(WAKE_TOPIC, {})
      .catch((error: unknown) => this.ctx.log.warn({ err: error }, 'webhooks wake not sent'));
  }
}

const outboxes = new WeakMap<PluginContext, Outbox>();

/** The app's outbox (each test app has its own context). */
export function outboxOf(ctx: PluginContext): Outbox {
  let outbox = outboxes.get(ctx);
  if (!outbox) {
    outbox = new Outbox(ctx);
    outboxes.set(ctx, outbox);
  }
  return outbox;
}
