import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';

/**
 * Fixed-window counters of the abuse limits, shared by every process (`ctx.cache.increment`: one Redis round
 * trip per hit, the window opened by its first hit). Over the limit: 429 ERR_WEBCHAT_RATE_LIMITED with
 * `retryAfter`, the seconds until the window ends.
 */
export async function hitLimit(ctx: PluginContext, key: string, limit: number, windowMs: number): Promise<void> {
  const { count, remainingMs } = await ctx.cache.increment(`webchat-limit:${key}`, windowMs);
  if (count > limit) {
    throw new AppError('ERR_WEBCHAT_RATE_LIMITED', { retryAfter: Math.max(1, Math.ceil(remainingMs / 1000)) });
  }
}

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;
