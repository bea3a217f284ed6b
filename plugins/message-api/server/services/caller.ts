import { AppError, type FastifyReply, type FastifyRequest } from '@balcao/plugin-sdk/server';
import type { MessageApiContext } from '../config';
import type { ApiCaller } from './send.service';

/** The longest token looked up (a connection's token has 30 characters; anything much longer is no token). */
const MAX_TOKEN_LENGTH = 200;

function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** Today as the server's calendar day (`YYYY-MM-DD`), as the core compares due dates. */
function localDay(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Who calls `POST /api/messages/send`: an API key with the `messages:send` scope (the core authenticated it
 * and checked the scope: `request.session.apiKeyId`), or a connection's token — the connection then is the
 * one that sends. A person's session is no API credential. The company must be active, paid up and have
 * useExternalApi, exactly as for a person's request.
 */
export async function resolveCaller(ctx: MessageApiContext, request: FastifyRequest): Promise<ApiCaller> {
  const session = request.session;
  let caller: ApiCaller;
  if (session?.apiKeyId !== undefined) {
    caller = { companyId: session.companyId, connectionId: null, identity: `key:${session.apiKeyId}` };
  } else {
    const token = bearerOf(request);
    if (session || token === null || token.length > MAX_TOKEN_LENGTH) throw new AppError('ERR_MESSAGE_API_TOKEN_INVALID');
    const connection = await ctx.services.use('connections').byToken(token);
    if (!connection) throw new AppError('ERR_MESSAGE_API_TOKEN_INVALID');
    caller = {
      companyId: connection.companyId,
      connectionId: connection.whatsappId,
      identity: `connection:${connection.whatsappId}`,
    };
  }
  // the core's cached company state (dropped on every process when the company changes): no read per call
  const company = await ctx.session.company(caller.companyId);
  if (!company) throw new AppError('ERR_MESSAGE_API_TOKEN_INVALID');
  if (!company.status) throw new AppError('ERR_COMPANY_INACTIVE');
  if (company.dueDate < localDay()) throw new AppError('ERR_SUBSCRIPTION_EXPIRED', { dueDate: company.dueDate });
  await ctx.plans.require(caller.companyId, 'useExternalApi');
  return caller;
}

/**
 * Counts a send against the caller's token (a fixed window in Redis, shared by every process) and answers
 * the `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers (seconds to the window's end);
 * past the limit: 429 ERR_MESSAGE_API_RATE_LIMITED with `Retry-After`.
 */
export async function applyRateLimit(ctx: MessageApiContext, caller: ApiCaller, reply: FastifyReply): Promise<void> {
  const limit = ctx.config.MESSAGE_API_RATE_LIMIT;
  const windowMs = ctx.config.MESSAGE_API_RATE_WINDOW_SECONDS * 1000;
  const { count, remainingMs } = await ctx.cache.increment(`rate:${caller.identity}`, windowMs);
  const reset = Math.max(1, Math.ceil(remainingMs / 1000));
  reply.header('RateLimit-Limit', String(limit));
  reply.header('RateLimit-Remaining', String(Math.max(0, limit - count)));
  reply.header('RateLimit-Reset', String(reset));
  if (count > limit) {
    reply.header('Retry-After', String(reset));
    throw new AppError('ERR_MESSAGE_API_RATE_LIMITED', { retryAfter: reset });
  }
}
