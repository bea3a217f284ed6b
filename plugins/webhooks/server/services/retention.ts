import type { WebhooksContext } from '../config';
import { GIVE_UP_AFTER_MS } from './dispatcher';

/** Rows one statement touches, so a large backlog never holds long locks. */
const SWEEP_BATCH = 5_000;

/** How often the core scheduler runs the sweep (any one worker process). */
export const SWEEP_EVERY_MS = 10 * 60_000;

export interface SweepResult {
  /** Pending deliveries past their day (an endpoint switched off, a plan without the flag) now failed. */
  expired: number;
  /** Delivered or failed deliveries past the retention, deleted with the event data they kept. */
  pruned: number;
}

async function inBatches(run: () => Promise<unknown>): Promise<number> {
  let total = 0;
  for (;;) {
    const count = ((await run()) as { rowCount?: number | null }).rowCount ?? 0;
    total += count;
    if (count < SWEEP_BATCH) return total;
  }
}

/**
 * The deliveries' upkeep, every company's (system work: no tenant). A delivery still pending a day after its
 * event is never sent (the dispatcher skips it) and is marked failed here, `expired`, so switching an
 * endpoint on again doesn't send days-old events. Final rows older than WEBHOOKS_RETENTION_DAYS are
 * deleted, their `data` (message bodies included) with them, so the log never outlives the inbox's own
 * retention by more than that.
 */
export async function sweepDeliveries(ctx: WebhooksContext, now = new Date()): Promise<SweepResult> {
  const { knex } = ctx.db;
  const dayBefore = new Date(now.getTime() - GIVE_UP_AFTER_MS);
  const expired = await inBatches(() =>
    knex.raw(
      `UPDATE webhook_deliveries SET status = 'failed', error = 'expired', next_attempt_at = NULL,
         lease_until = NULL, lease_token = NULL
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND occurred_at < ? AND (lease_until IS NULL OR lease_until < ?)
         ORDER BY id LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)`,
      [dayBefore, now],
    ),
  );
  const keptSince = new Date(now.getTime() - ctx.config.WEBHOOKS_RETENTION_DAYS * 86_400_000);
  const pruned = await inBatches(() =>
    knex.raw(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE status IN ('delivered', 'failed') AND created_at < ?
         ORDER BY created_at, id LIMIT ${SWEEP_BATCH})`,
      [keptSince],
    ),
  );
  if (expired > 0 || pruned > 0) ctx.log.info({ expired, pruned }, 'webhook deliveries swept');
  return { expired, pruned };
}
