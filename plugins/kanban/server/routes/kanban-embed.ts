import {
  access,
  defineRoutes,
  type FastifyReply,
  type FastifyRequest,
  Id,
  NoQuery,
  type PluginContext,
  runInTenant,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import type { EmbedKey } from '../models/embed-key';
import { embedBoardJson, embedMove } from '../services/embed-board.service';
import { EMBED_KEY_PATTERN, RateLimiter, requireAllowedOrigin, resolvePublicKey } from '../services/embed-keys.service';
import { boardChangesOf, onKeyRevoked } from '../services/live';
import { BoardPageQuery, boardSliceOf, ErrorBody, KanbanTicketSchema, LaneCountSchema, sendBoardText } from '../services/schemas';

const KeyParams = StrictObject({ key: Type.String({ pattern: EMBED_KEY_PATTERN }) });

/** Reads (board loads, stream opens) and moves per key and client address per minute. */
const READS_PER_MINUTE = 240;
const MOVES_PER_MINUTE = 60;
/** An event stream is closed after this long (EventSource reconnects by itself); the key is checked again then. */
const STREAM_LIFE_MS = 10 * 60_000;
/** Comment lines keep proxies from closing an idle stream; each also checks the key is still valid. */
const STREAM_PING_MS = 25_000;

const EmbedBoardSchema = Type.Object({
  name: Type.String(),
  mayMove: Type.Boolean(),
  signedUsers: Type.Boolean(),
  defaultLane: Type.Boolean(),
  lanes: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() })),
  tickets: Type.Array(KanbanTicketSchema),
  laneCounts: Type.Optional(Type.Array(LaneCountSchema)),
});

/**
 * The widget's public API (docs/kanban.md "Embed API"): no session — the embed key names the company,
 * the `Origin` must be one the key allows (and is the only origin CORS answers), calls are rate-limited,
 * and the plan flag is checked here because public routes have no company before the key is read.
 */
export default defineRoutes((app, ctx) => {
  const reads = new RateLimiter(READS_PER_MINUTE);
  const moves = new RateLimiter(MOVES_PER_MINUTE);

  /** The key of a call from an allowed origin, with the CORS answer for that origin set. */
  async function admit(request: FastifyRequest, reply: FastifyReply, publicKey: string, limiter: RateLimiter): Promise<EmbedKey> {
    const key = await resolvePublicKey(ctx, publicKey);
    const origin = requireAllowedOrigin(key, request.headers.origin);
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    limiter.hit(`${key.id}:${request.ip}`);
    return key;
  }

  app.get(
    '/kanban-embed/:key/board',
    {
      schema: {
        summary: 'Embed: get the board',
        errors: {
          403: ['ERR_EMBED_KEY_REVOKED', 'ERR_EMBED_ORIGIN_REFUSED', 'ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_NO_EMBED_KEY_FOUND', 'ERR_NO_LANE_FOUND'],
          429: ['ERR_RATE_LIMITED'],
        },
        params: KeyParams,
        // the board's optional paging (docs/kanban.md "Pages"); without it, the whole board
        querystring: StrictObject(BoardPageQuery),
        response: { 200: EmbedBoardSchema, 304: Type.Null(), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
      config: access.public,
    },
    async (request, reply) => {
      const key = await admit(request, reply, request.params.key, reads);
      const slice = boardSliceOf(request.query);
      await touch(ctx, key);
      const board = await runInTenant({ companyId: key.companyId }, () => embedBoardJson(ctx, key, slice));
      // built as JSON text by Postgres (services/board.service.ts): sent as it is
      return sendBoardText(request, reply, board);
    },
  );

  app.options(
    '/kanban-embed/:key/moves',
    {
      schema: { params: KeyParams, querystring: NoQuery, response: { 204: Type.Null(), 403: ErrorBody, 404: ErrorBody } },
      config: access.public,
    },
    async (request, reply) => {
      await admit(request, reply, request.params.key, reads);
      return reply
        .status(204)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '600')
        .send(null);
    },
  );

  app.post(
    '/kanban-embed/:key/moves',
    {
      schema: {
        summary: 'Embed: move a card to another lane',
        errors: {
          401: ['ERR_EMBED_USER_TOKEN_EXPIRED', 'ERR_EMBED_USER_TOKEN_INVALID', 'ERR_EMBED_USER_TOKEN_REQUIRED'],
          403: ['ERR_EMBED_KEY_REVOKED', 'ERR_EMBED_ORIGIN_REFUSED', 'ERR_EMBED_READ_ONLY', 'ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_NO_EMBED_KEY_FOUND', 'ERR_NO_LANE_FOUND', 'ERR_NO_TICKET_FOUND'],
          429: ['ERR_RATE_LIMITED'],
        },
        params: KeyParams,
        body: StrictObject({
          ticketId: Id,
          laneId: Type.Union([Id, Type.Null()]),
          userToken: Type.Optional(Type.String({ minLength: 1, maxLength: 4_096 })),
        }),
        response: {
          200: Type.Object({ ticketId: Type.Integer(), laneId: Type.Union([Type.Integer(), Type.Null()]) }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
        },
      },
      config: access.public,
    },
    async (request, reply) => {
      const key = await admit(request, reply, request.params.key, moves);
      return runInTenant({ companyId: key.companyId }, () => embedMove(ctx, key, request.body));
    },
  );

  app.get(
    '/kanban-embed/:key/events',
    {
      schema: {
        summary: 'Embed: live board events (server-sent events)',
        errors: {
          403: ['ERR_EMBED_KEY_REVOKED', 'ERR_EMBED_ORIGIN_REFUSED', 'ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_NO_EMBED_KEY_FOUND'],
          429: ['ERR_RATE_LIMITED'],
        },
        params: KeyParams,
        querystring: NoQuery,
        response: { 200: Type.String(), 403: ErrorBody, 404: ErrorBody },
      },
      config: access.public,
    },
    async (request, reply) => {
      const key = await admit(request, reply, request.params.key, reads);
      openStream(ctx, request, reply, key);
    },
  );
});

/** Remembers when a key was last used (at most once a minute per key). */
async function touch(ctx: PluginContext, key: EmbedKey): Promise<void> {
  if (key.lastUsedAt && Date.now() - new Date(key.lastUsedAt).getTime() < 60_000) return;
  await ctx.db.knex('kanbanEmbedKeys').where({ id: key.id, companyId: key.companyId }).update({ lastUsedAt: new Date() });
}

/**
 * A server-sent event stream of the key's company board: `ready`, then `change` (no payload: the widget
 * reloads its board, so nothing of other lanes travels) whenever a card may have changed, and `revoked`
 * before it closes for a revoked key.
 */
function openStream(ctx: PluginContext, request: FastifyRequest, reply: FastifyReply, key: EmbedKey): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'access-control-allow-origin': String(reply.getHeader('access-control-allow-origin')),
    vary: 'Origin',
  });
  raw.write('retry: 3000\nevent: ready\ndata: {}\n\n');
  let pending: NodeJS.Timeout | null = null;
  const unsubscribe = boardChangesOf(ctx).subscribe(key.companyId, () => {
    // a burst of changes (a move is a DELETE then a PUT) makes one reload
    pending ??= setTimeout(() => {
      pending = null;
      raw.write('event: change\ndata: {}\n\n');
    }, 250);
  });
  const ping = setInterval(async () => {
    try {
      const row = await ctx.db.knex('kanbanEmbedKeys').where({ id: key.id }).first('revokedAt');
      if (!row || row.revokedAt) {
        raw.write('event: revoked\ndata: {}\n\n');
        close();
        return;
      }
      raw.write(': ping\n\n');
    } catch (error) {
      ctx.log.warn({ err: error }, 'kanban embed stream check failed');
    }
  }, STREAM_PING_MS);
  const life = setTimeout(() => close(), STREAM_LIFE_MS);
  const stopOnRevoke = onKeyRevoked(key.id, () => {
    raw.write('event: revoked\ndata: {}\n\n');
    close();
  });
  let closed = false;
  function close() {
    if (closed) return;
    closed = true;
    unsubscribe();
    stopOnRevoke();
    clearInterval(ping);
    clearTimeout(life);
    if (pending) clearTimeout(pending);
    raw.end();
  }
  request.raw.on('close', close);
}
