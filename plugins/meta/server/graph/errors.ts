import { AppError } from '@balcao/plugin-sdk/server';
import { GraphError } from './client';

/** Graph codes that mean "slow down" (app, page, account and pair rate limits, WhatsApp's throughput). */
const RATE_LIMITS = new Set([4, 17, 32, 613, 80001, 80002, 80006, 80007, 130429, 131048, 131056]);
/** Outside the window: WhatsApp's re-engagement error, Messenger's "outside of allowed window". */
const WINDOW_CLOSED = new Set([131047, 470]);
const WINDOW_SUBCODES = new Set([2018278, 2018109, 2534022]);
/** Token problems: expired, revoked, not this object's. */
const TOKEN = new Set([190, 102, 463, 467]);

/** A Graph failure as our error code: what the agent sees on the message and whether it is worth retrying. */
export function mapGraphError(error: unknown): { code: string; transient: boolean } {
  if (!(error instanceof GraphError)) return { code: 'ERR_META_UNAVAILABLE', transient: true };
  if (error.subcode !== null && WINDOW_SUBCODES.has(error.subcode)) return { code: 'ERR_META_WINDOW_CLOSED', transient: false };
  if (WINDOW_CLOSED.has(error.code)) return { code: 'ERR_META_WINDOW_CLOSED', transient: false };
  if (RATE_LIMITS.has(error.code) || error.status === 429) return { code: 'ERR_META_RATE_LIMITED', transient: true };
  if (TOKEN.has(error.code) || error.status === 401) return { code: 'ERR_META_TOKEN_INVALID', transient: false };
  if (error.status === 0 || error.status >= 500 || error.code === 1 || error.code === 2 || error.code === 131000)
    return { code: 'ERR_META_UNAVAILABLE', transient: true };
  return { code: 'ERR_META_SEND_REFUSED', transient: false };
}

/** Runs a Graph call, turning its failure into an AppError of our catalogue. */
export async function graphOrAppError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(mapGraphError(error).code as 'ERR_META_UNAVAILABLE');
  }
}
