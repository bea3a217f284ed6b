import type { MessageApiContext } from '../config';

/** How long an idempotency record answers retries (docs/api.md "The message API"). */
export const IDEMPOTENCY_RETENTION_DAYS = 30;

/**
 * Deletes the idempotency records older than the retention, every company's (system work: no tenant), a
 * few thousand rows a statement so that a large backlog never holds long locks. Answers how many went.
 */
export async function purgeIdempotencyRecords(ctx: MessageApiContext, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - IDEMPOTENCY_RETENTION_DAYS * 86_400_000);
  let purged = 0;
  for (;;) {
    const result = await ctx.db.knex.raw(
      `DELETE FROM message_api_requests WHERE id IN (
         SELECT id FROM message_api_requests WHERE created_at < ? ORDER BY created_at LIMIT 5000)`,
      [before],
    );
    const count = (result as { rowCount?: number }).rowCount ?? 0;
    purged += count;
    if (count < 5000) return purged;
  }
}
