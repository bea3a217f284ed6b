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

/** The topic of "a company's endpoints changed" (`{ companyId }`): every process forgets its subscriptions. */
export const ENDPOINTS_CHANGED_TOPIC = 'endpoints-changed';

/** How long a company's subscribed events are trusted without a change notice (a lost notice heals within this). */
const SUBSCRIPTIONS_TTL_MS = 5_000;

interface Subscriptions {
  loadedAt: number;
  /** The events some active endpoint of the company is subscribed to. */
  events: Promise<Set<string>>;
}

/**
 * Writes events to the outbox. Handlers of the inbox's events run inside its receive path, so each event
 * costs exactly one statement there, shared with every event arriving meanwhile (StatementBatcher): the
 * subscribed endpoints are found by the insert itself (`INSERT … SELECT … JOIN webhook_endpoints`), and
 * nothing is sent or read on that path. An event no active endpoint of its company subscribes to writes no
 * statement at all: each company's subscribed events are cached per process, read once and dropped on
 * every process when an endpoint is created, changed, deleted or disabled (`invalidateEndpoints`).
 */
class Outbox {
  private lastWake = 0;
  private readonly subscriptions = new Map<number, Subscriptions>();
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
    if (!(await this.subscribedEvents(event.companyId)).has(event.event)) return 0;
    const written = await this.batcher.submit(event);
    if (written > 0) this.wake();
    return written;
  }

  /** Forgets a company's subscribed events (its endpoints changed); the next event reads them again. */
  forget(companyId: number): void {
    this.subscriptions.delete(companyId);
  }

  /**
   * The events the company's active endpoints subscribe to. The read's promise is cached from its start, so
   * a change notice arriving while it runs drops it, and the events after the notice read again.
   */
  private subscribedEvents(companyId: number): Promise<Set<string>> {
    const cached = this.subscriptions.get(companyId);
    if (cached && Date.now() - cached.loadedAt < SUBSCRIPTIONS_TTL_MS) return cached.events;
    const events = this.ctx.db
      .knex('webhookEndpoints')
      .where({ companyId, active: true })
      .select('events')
      .then((rows: Array<{ events: string[] }>) => new Set(rows.flatMap((row) => row.events)));
    const entry = { loadedAt: Date.now(), events };
    this.subscriptions.set(companyId, entry);
    events.catch(() => {
      if (this.subscriptions.get(companyId) === entry) this.subscriptions.delete(companyId);
    });
    return events;
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

/**
 * Call after every write to a company's endpoints: this process forgets its subscribed events at once, the
 * others when the broadcast arrives (at most SUBSCRIPTIONS_TTL_MS later if it is lost).
 */
export async function invalidateEndpoints(ctx: PluginContext, companyId: number): Promise<void> {
  outboxOf(ctx).forget(companyId);
  await ctx.broadcast.publish(ENDPOINTS_CHANGED_TOPIC, { companyId });
}
