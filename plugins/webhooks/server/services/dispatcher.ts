import { randomUUID } from 'node:crypto';
import { createOutboundHttp, type OutboundHttp, OutboundHttpError } from '@balcao/plugin-sdk/server';
import type { WebhooksContext } from '../config';
import { type Clock, systemClock } from './clock';
import { enqueueNoticeMail } from './disable-mail';
import { emitWebhook, notifyAdmins } from './live';
import { invalidateEndpoints } from './outbox';
import { secretsKey, unseal } from './secrets';
import { signatureHeader } from './signature';

/**
 * The dispatcher (docs/api.md "Webhooks", "Retries"): every worker process runs a few loops that claim due
 * deliveries in Postgres (`FOR UPDATE SKIP LOCKED`, then a lease with a token, renewed while the batch is
 * in flight), POST them through the guarded outbound client and record the answer. A process killed at any
 * instant leaves rows whose lease runs out and another loop sends them again: at least once, never lost;
 * receivers dedupe by `Balcao-Delivery`.
 */

/** Waits after the 1st, 2nd … failed attempt; the last one repeats. No attempt is made 24 h past the event. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 4 * 3_600_000, 8 * 3_600_000];
/** How long after its event a delivery is retried, and how long an endpoint may fail before it is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** How long a delivery of a company whose plan lost useExternalApi waits before it is looked at again. */
const PLAN_OFF_WAIT_MS = 5 * 60_000;
/** The longest an idle loop waits; a wake-up (deliveries written, from any process) cuts it short. */
const MAX_IDLE_MS = 2_000;

export interface DispatcherOptions {
  lanes: number;
  batch: number;
  leaseMs: number;
  timeoutMs: number;
  /** Deliveries to one endpoint this process sends at once. */
  endpointConcurrency: number;
}

interface ClaimedDelivery {
  id: number;
  uuid: string;
  companyId: number;
  endpointId: number;
  event: string;
  data: unknown;
  occurredAt: Date;
  attempts: number;
  url: string;
  secretSealed: string;
}

/** The JSON body of a delivery, as it is signed and sent. */
export function deliveryBody(row: Pick<ClaimedDelivery, 'uuid' | 'event' | 'occurredAt' | 'companyId' | 'data'>): string {
  return JSON.stringify({
    id: row.uuid,
    event: row.event,
    createdAt: new Date(row.occurredAt).toISOString(),
    companyId: row.companyId,
    data: row.data,
  });
}

/** When the next attempt goes after `attempts` failed ones; null: none, the 24 h are over. */
export function nextAttemptAt(occurredAt: Date, attempts: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0] ?? 60_000;
  const next = new Date(now.getTime() + delay);
  return next.getTime() - occurredAt.getTime() > GIVE_UP_AFTER_MS ? null : next;
}

export class WebhookDispatcher {
  clock: Clock = systemClock;
  private stopped = true;
  private loops: Promise<void>[] = [];
  private wakers: Array<() => void> = [];
  private idleMs = 0;
  private http: OutboundHttp | null = null;

  constructor(
    private readonly ctx: WebhooksContext,
    readonly options: DispatcherOptions,
  ) {}

  /** The guarded client every delivery goes through (no private or metadata address unless allowed). */
  private client(): OutboundHttp {
    this.http ??= createOutboundHttp({
      allow: this.ctx.config.outboundHttpAllow,
      timeoutMs: this.options.timeoutMs,
      // a receiver's answer is only logged by its status: read little of it (a larger one is a failed attempt)
      maxBytes: 256 * 1024,
      maxRedirects: 0,
    });
    return this.http;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loops = Array.from({ length: this.options.lanes }, () => this.loop());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.allSettled(this.loops);
    this.loops = [];
    await Promise.allSettled([...this.batches]);
  }

  async close(): Promise<void> {
    await this.stop();
    await this.http?.close();
    this.http = null;
  }

  wake(): void {
    this.idleMs = 0;
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  private idle(): Promise<void> {
    this.idleMs = Math.min(MAX_IDLE_MS, this.idleMs === 0 ? 100 : this.idleMs * 2);
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.idleMs);
      timer.unref();
      const wakers = this.wakers;
      function done() {
        clearTimeout(timer);
        const index = wakers.indexOf(done);
        if (index >= 0) wakers.splice(index, 1);
        resolve();
      }
      this.wakers.push(done);
    });
  }

  /**
   * A lane keeps up to WEBHOOKS_BATCH deliveries in flight and claims more as each one finishes, so a
   * receiver that takes seconds to answer holds one slot, not the lane: the other endpoints' deliveries
   * go on around it.
   */
  private async loop(): Promise<void> {
    let inFlight = 0;
    while (!this.stopped) {
      let worked = 0;
      const free = this.options.batch - inFlight;
      if (free > 0) {
        try {
          worked = await this.startBatch(free, () => {
            inFlight -= 1;
            // a slot is free: this lane (idle or full) looks again at once
            this.wake();
          });
          inFlight += worked;
        } catch (error) {
          this.ctx.log.error({ err: error }, 'webhook dispatch failed');
        }
      }
      if (worked > 0) this.idleMs = 0;
      else if (!this.stopped) await this.idle();
    }
  }

  /** One pass: claims due deliveries (every company) and sends them at once. Answers how many it claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.startBatch(this.options.batch, () => {});
    await Promise.allSettled([...this.batches]);
    return claimed;
  }

  /** Deliveries in flight in this process, by endpoint. */
  private readonly perEndpoint = new Map<number, number>();

  /** Batches still sending: stop() waits for them. */
  private readonly batches = new Set<Promise<void>>();

  /**
   * Claims up to `limit` due deliveries and starts sending them, each calling `settled` once recorded;
   * answers how many it claimed without waiting for them.
   */
  private async startBatch(limit: number, settled: () => void): Promise<number> {
    const token = randomUUID();
    // endpoints this process already sends its share to wait for the next claim: a slow one can't take every slot
    const busy = [...this.perEndpoint].filter(([, count]) => count >= this.options.endpointConcurrency).map(([id]) => id);
    const claimed = await this.claim(this.clock.now(), token, limit, busy);
    // more than an endpoint's share in one claim: the rest go back at once, untried, for a later claim
    const rows: ClaimedDelivery[] = [];
    const extra: number[] = [];
    for (const row of claimed) {
      const count = this.perEndpoint.get(row.endpointId) ?? 0;
      if (count >= this.options.endpointConcurrency) {
        extra.push(row.id);
        continue;
      }
      this.perEndpoint.set(row.endpointId, count + 1);
      rows.push(row);
    }
    if (extra.length > 0) {
      await this.ctx.db.knex.raw(
        `UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL, attempts = GREATEST(attempts - 1, 0)
         WHERE id = ANY(?::bigint[]) AND lease_token = ?`,
        [extra, token],
      );
    }
    if (rows.length === 0) return 0;
    const release = (endpointId: number) => {
      const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
      if (left > 0) this.perEndpoint.set(endpointId, left);
      else this.perEndpoint.delete(endpointId);
    };
    const renewing = this.renewLease(
      rows.map((row) => row.id),
      token,
    );
    const send = async (row: ClaimedDelivery) => {
      // the plan is cached by the core: one lookup per company in practice
      if (await this.ctx.plans.has(row.companyId, 'useExternalApi')) await this.deliver(row, token);
      else await this.postpone(row, token);
    };
    const batch = Promise.all(
      rows.map((row) =>
        send(row)
          .catch((error: unknown) => this.ctx.log.error({ err: error, deliveryId: row.id }, 'webhook delivery not recorded'))
          .finally(() => {
            release(row.endpointId);
            settled();
          }),
      ),
    ).then(() => renewing.stop());
    this.batches.add(batch);
    void batch.finally(() => this.batches.delete(batch));
    return rows.length;
  }

  /**
   * Claims due deliveries of active endpoints with a lease (a dead process's come back when it passes);
   * none more than GIVE_UP_AFTER_MS after its event.
   */
  private async claim(now: Date, token: string, limit: number, busyEndpoints: number[]): Promise<ClaimedDelivery[]> {
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    const claimed = (await this.ctx.db.knex.raw(
      `WITH picked AS (
         SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.active
         WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
           AND d.endpoint_id <> ALL(?::int[])
           -- past its day (it waited on a switched-off endpoint or plan): never sent; the sweep fails it
           AND d.occurred_at >= ?
         ORDER BY d.next_attempt_at, d.id LIMIT ? FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries d SET lease_until = ?, lease_token = ?, attempts = d.attempts + 1
       FROM picked, webhook_endpoints e WHERE d.id = picked.id AND e.id = d.endpoint_id
       RETURNING d.id, d.uuid, d.company_id AS "companyId", d.endpoint_id AS "endpointId", d.event, d.data,
         d.occurred_at AS "occurredAt", d.attempts, e.url, e.secret_sealed AS "secretSealed"`,
      [now, now, busyEndpoints, new Date(now.getTime() - GIVE_UP_AFTER_MS), limit, leaseUntil, token],
    )) as { rows: ClaimedDelivery[] };
    return claimed.rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** Keeps a claim's lease ahead while its batch is in flight; a dead process renews nothing. */
  private renewLease(ids: number[], token: string): { stop(): Promise<void> } {
    let pending: Promise<unknown> = Promise.resolve();
    const timer = setInterval(
      () => {
        const leaseUntil = new Date(this.clock.now().getTime() + this.options.leaseMs);
        pending = this.ctx.db.knex
          .raw('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ANY(?::bigint[]) AND lease_token = ?', [
            leaseUntil,
            ids,
            token,
          ])
          .catch((error: unknown) => this.ctx.log.warn({ err: error }, 'webhook lease not renewed'));
      },
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    );
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await pending;
      },
    };
  }

  /** Gives back a delivery of a company whose plan lacks the flag, its claim not counted as an attempt. */
  private async postpone(row: ClaimedDelivery, token: string): Promise<void> {
    await this.ctx.db.knex.raw(
      `UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL, attempts = GREATEST(attempts - 1, 0),
         next_attempt_at = ? WHERE id = ? AND lease_token = ?`,
      [new Date(this.clock.now().getTime() + PLAN_OFF_WAIT_MS), row.id, token],
    );
  }

  private async deliver(row: ClaimedDelivery, token: string): Promise<void> {
    const started = this.clock.now();
    const secret = unseal(secretsKey(this.ctx), row.secretSealed);
    let outcome: { ok: boolean; status: number | null; durationMs: number; error: string | null };
    if (secret === null) {
      outcome = { ok: false, status: null, durationMs: 0, error: 'secret-unreadable' };
    } else {
      const body = deliveryBody(row);
      const unix = Math.floor(started.getTime() / 1000);
      const before = performance.now();
      try {
        const response = await this.client().request(row.url, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Balcao-Webhooks/1',
            'balcao-signature': signatureHeader(secret, body, unix),
            'balcao-event': row.event,
            'balcao-delivery': row.uuid,
          },
        });
        const ok = response.status >= 200 && response.status < 300;
        outcome = {
          ok,
          status: response.status,
          durationMs: Math.round(performance.now() - before),
          error: ok ? null : 'status',
        };
      } catch (error) {
        const failure = error instanceof OutboundHttpError ? error.failure : 'network';
        outcome = { ok: false, status: null, durationMs: Math.round(performance.now() - before), error: failure };
      }
    }
    await this.record(row, token, outcome, started);
  }

  /** Records an attempt's outcome (only while the claim is still ours) and the endpoint's health. */
  private async record(
    row: ClaimedDelivery,
    token: string,
    outcome: { ok: boolean; status: number | null; durationMs: number; error: string | null },
    at: Date,
  ): Promise<void> {
    const { knex } = this.ctx.db;
    const next = outcome.ok ? null : nextAttemptAt(new Date(row.occurredAt), row.attempts, at);
    const status = outcome.ok ? 'delivered' : next === null ? 'failed' : 'pending';
    const updated = await knex('webhookDeliveries').where({ id: row.id, leaseToken: token }).update({
      status,
      nextAttemptAt: next,
      lastAttemptAt: at,
      responseStatus: outcome.status,
      durationMs: outcome.durationMs,
      error: outcome.error,
      leaseUntil: null,
      leaseToken: null,
    });
    if (updated === 0) return;
    if (outcome.ok) {
      await knex('webhookEndpoints').where({ id: row.endpointId }).whereNotNull('failingSince').update({ failingSince: null });
      return;
    }
    const [endpoint] = (
      await knex.raw(
        `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failing_since AS "failingSince"`,
        [at, row.endpointId],
      )
    ).rows as Array<{ failingSince: Date }>;
    if (!endpoint || at.getTime() - new Date(endpoint.failingSince).getTime() < GIVE_UP_AFTER_MS) return;
    // failing for a day: disabled, and its company's admins told (their screens, the page's notice, and an
    // e-mail: the notice row is written by the same statement, so a disable never goes without its mail)
    const disabled = (
      await knex.raw(
        `WITH off AS (
           UPDATE webhook_endpoints SET active = false, disabled_at = ?, updated_at = ?
           WHERE id = ? AND active RETURNING id, company_id, name, url, language, disabled_at
         ), notice AS (
           INSERT INTO webhook_disable_notices (company_id, endpoint_id, endpoint_name, endpoint_url, language, disabled_at, next_attempt_at)
           -- due at once, by the database's clock (what the notices job compares with)
           SELECT company_id, id, name, url, language, disabled_at, now() FROM off
           RETURNING id
         )
         SELECT off.id, off.name, off.url, (SELECT id FROM notice) AS "noticeId" FROM off`,
        [at, at, row.endpointId],
      )
    ).rows as Array<{ id: number; name: string; url: string; noticeId: string }>;
    const [first] = disabled;
    if (first) {
      this.ctx.log.warn({ endpointId: first.id, companyId: row.companyId }, 'webhook endpoint disabled after failing for 24 h');
      await invalidateEndpoints(this.ctx, row.companyId);
      emitWebhook(this.ctx, row.companyId, { action: 'update', webhookId: first.id });
      await enqueueNoticeMail(this.ctx, Number(first.noticeId));
      await notifyAdmins(this.ctx, row.companyId, {
        action: 'disabled',
        webhook: { id: first.id, name: first.name, url: first.url },
      });
    }
  }
}

const dispatchers = new WeakMap<WebhooksContext, WebhookDispatcher>();

/** The app's dispatcher (each test app has its own context). */
export function webhookDispatcher(ctx: WebhooksContext): WebhookDispatcher {
  let dispatcher = dispatchers.get(ctx);
  if (!dispatcher) {
    dispatcher = new WebhookDispatcher(ctx, {
      lanes: ctx.config.WEBHOOKS_LANES,
      batch: ctx.config.WEBHOOKS_BATCH,
      leaseMs: ctx.config.WEBHOOKS_LEASE_MS,
      timeoutMs: ctx.config.WEBHOOKS_TIMEOUT_MS,
      endpointConcurrency: ctx.config.WEBHOOKS_ENDPOINT_CONCURRENCY,
    });
    dispatchers.set(ctx, dispatcher);
  }
  return dispatcher;
}
