import { AppError } from '@balcao/plugin-sdk/server';
import type { MetaContext } from './config';
import { mapGraphError } from './graph/errors';

/** Tries of a message the Graph refused for a passing reason (rate limit, outage), first one included. */
export const MAX_SEND_TRIES = 5;
/** Delay of the n-th retry: 15 s, 30 s, 60 s, 120 s by default (META_RETRY_BASE_MS). */
export const retryDelayMs = (ctx: MetaContext, retry: number) => ctx.config.META_RETRY_BASE_MS * 2 ** (retry - 1);

/**
 * A Graph failure of a send, as the error the inbox keeps on the message (failed, shown to the agent,
 * retryable by hand). A passing failure also schedules a durable retry (`retry-delivery`), which asks the
 * inbox to deliver the message again: it becomes sent when one of the tries succeeds.
 */
export async function sendFailure(ctx: MetaContext, companyId: number, messageId: number, error: unknown): Promise<AppError> {
  if (error instanceof AppError) return error;
  const { code, transient } = mapGraphError(error);
  ctx.log.warn({ err: error, messageId, code }, 'the Graph refused a message');
  if (transient) {
    const { count } = await ctx.cache.increment(`send-tries:${messageId}`, 3_600_000);
    if (count < MAX_SEND_TRIES)
      await ctx.jobs.enqueue(
        'retry-delivery',
        { messageId },
        { companyId, delayMs: retryDelayMs(ctx, count), jobId: `retry-${messageId}-${count}`, retries: 2 },
      );
  }
  return new AppError(code as 'ERR_META_UNAVAILABLE');
}

/** The `retry-delivery` job: the inbox's own delivery step again (a message sent meanwhile is left alone). */
export async function retryDelivery(data: Record<string, unknown>, ctx: MetaContext): Promise<void> {
  const messageId = Number(data.messageId);
  if (!Number.isSafeInteger(messageId)) return;
  await ctx.services.use('inbox').deliver([messageId]);
}
