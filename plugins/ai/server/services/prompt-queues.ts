import type { AiContext } from '../config';

/**
 * Which queues of a company have a prompt, kept in memory for a few seconds: the `message.received`
 * handler runs inside the inbox's receive path for every customer message, so a ticket whose queue has no
 * prompt costs a map lookup there and nothing more (docs/ai.md "Speed"). A write in this process forgets
 * the company's entry at once; other processes see it within TTL_MS.
 */
const TTL_MS = 5_000;
const cache = new Map<number, { at: number; queues: Promise<Set<number>> }>();

export function promptQueues(ctx: AiContext, companyId: number): Promise<Set<number>> {
  const hit = cache.get(companyId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.queues;
  const queues = ctx.db
    .knex('prompts')
    .where({ companyId })
    .select('queueId')
    .then((rows: Array<{ queueId: number }>) => new Set(rows.map((row) => row.queueId)));
  queues.catch(() => cache.delete(companyId));
  cache.set(companyId, { at: Date.now(), queues });
  return queues;
}

export function forgetPromptQueues(companyId: number): void {
  cache.delete(companyId);
}
