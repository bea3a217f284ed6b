import type { PluginContext } from '@balcao/plugin-sdk/server';
import { enqueueDelivery } from './message-send.service';

/** How often the sweep runs, and how long a message waits pending before the sweep queues it again. */
export const PENDING_SWEEP_EVERY_MS = 60_000;
export const PENDING_SWEEP_AFTER_MS = 2 * 60_000;
/** A message pending longer than this is left alone: what kept it pending is not a lost enqueue. */
export const PENDING_SWEEP_WITHIN_MS = 24 * 60 * 60_000;
/** Messages queued again per run; the next run takes the rest. */
export const PENDING_SWEEP_BATCH = 500;

/**
 * Queues again the delivery of outbound messages that the `deliver-message` job owns (`deliveryByJob`) and
 * that are still pending some minutes after they were stored or last queued — what a process killed
 * between committing a message and queueing its job leaves behind. Each one taken is touched
 * (`updated_at`), so it waits another period before a second attempt, and two sweeps on two workers take
 * different rows (`SKIP LOCKED`). The job id is the message's, so a delivery still queued or running is
 * not doubled (the job runner makes a second enqueue of a pending id a no-op), and the job leaves a sent
 * message alone. Answers how many it queued.
 */
export async function sweepPendingDeliveries(ctx: PluginContext, now = new Date()): Promise<number> {
  const result = (await ctx.db.knex.raw(
    `UPDATE messages SET updated_at = ?
     WHERE id IN (
       SELECT id FROM messages
       WHERE send_status = 'pending' AND delivery_by_job AND updated_at < ? AND updated_at > ?
       ORDER BY updated_at LIMIT ? FOR UPDATE SKIP LOCKED)
     RETURNING id, company_id AS "companyId"`,
    [
      now,
      new Date(now.getTime() - PENDING_SWEEP_AFTER_MS),
      new Date(now.getTime() - PENDING_SWEEP_WITHIN_MS),
      PENDING_SWEEP_BATCH,
    ],
  )) as { rows: Array<{ id: string | number; companyId: number }> };
  for (const row of result.rows) await enqueueDelivery(ctx, row.companyId, Number(row.id));
  if (result.rows.length > 0) ctx.log.warn({ count: result.rows.length }, 'pending deliveries queued again');
  return result.rows.length;
}
