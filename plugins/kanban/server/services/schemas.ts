import { createHash } from 'node:crypto';
import { AppError, type FastifyReply, type FastifyRequest, Type } from '@balcao/plugin-sdk/server';
import { type BoardJson, type BoardSlice, PAGE_LIMIT } from './board.service';

/** A lane as `GET /tag/kanban` answers it. */
export const LaneSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String(),
    kanban: Type.Integer(),
    timeLane: Type.Union([Type.Integer(), Type.Null()]),
    nextLaneId: Type.Union([Type.Integer(), Type.Null()]),
    greetingMessageLane: Type.Union([Type.String(), Type.Null()]),
    rollbackLaneId: Type.Union([Type.Integer(), Type.Null()]),
    ticketTags: Type.Integer(),
  },
  { title: 'Lane' },
);

const TagRef = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String(), kanban: Type.Integer() });

/** A card (docs/product/administration.md#entities Kanban ticket) and its lane. */
export const KanbanTicketSchema = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String(),
    status: Type.String(),
    channel: Type.String(),
    contact: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      number: Type.Union([Type.String(), Type.Null()]),
      isGroup: Type.Boolean(),
    }),
    lastMessage: Type.String(),
    unreadMessages: Type.Integer(),
    updatedAt: Type.String(),
    whatsapp: Type.Union([Type.Object({ name: Type.String() }), Type.Null()]),
    user: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
    queueId: Type.Union([Type.Integer(), Type.Null()]),
    tags: Type.Array(TagRef),
    laneId: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'KanbanTicket' },
);

/** How many cards a lane holds, in a page of the board (`laneId` null: the default lane). */
export const LaneCountSchema = Type.Object({ laneId: Type.Union([Type.Integer(), Type.Null()]), count: Type.Integer() });

/**
 * The optional paging parameters of the board's reads (`GET /ticket/kanban`, `GET /kanban-embed/:key/board`);
 * without them the answer is the whole board, as documented. `perLane`: the first cards of every
 * lane and every lane's count; `lane` (a lane id or `default`) with `offset` and `limit`: a slice of one lane.
 */
export const BoardPageQuery = {
  perLane: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT })),
  lane: Type.Optional(Type.String({ pattern: '^(default|[1-9]\\d{0,9})$' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT })),
};

/** The slice of the board the paging parameters ask for (400 ERR_VALIDATION for a mix that means nothing). */
export function boardSliceOf(query: { perLane?: number; lane?: string; offset?: number; limit?: number }): BoardSlice {
  const refuse = (field: string, message: string) =>
    new AppError('ERR_VALIDATION', { details: [{ field: `querystring.${field}`, message }] });
  if (query.lane === undefined) {
    if (query.offset !== undefined) throw refuse('offset', 'only with lane');
    if (query.limit !== undefined) throw refuse('limit', 'only with lane');
    return query.perLane === undefined ? { kind: 'all' } : { kind: 'head', perLane: query.perLane };
  }
  if (query.perLane !== undefined) throw refuse('perLane', 'not with lane (use limit)');
  if (query.limit === undefined) throw refuse('limit', 'required with lane');
  const laneId = query.lane === 'default' ? null : Number(query.lane);
  if (laneId !== null && laneId > 2_147_483_647) throw refuse('lane', 'must be a lane id or default');
  return { kind: 'lane', laneId, offset: query.offset ?? 0, limit: query.limit };
}

/** A board answer's text: `{"tickets":[…]}`, and `"laneCounts":[…]` for a page; `head` fields go first. */
export function boardAnswerText(board: BoardJson, head = ''): string {
  return `{${head}"tickets":${board.tickets}${board.laneCounts === null ? '' : `,"laneCounts":${board.laneCounts}`}}`;
}

export const EmbedKeySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    key: Type.String(),
    secret: Type.String(),
    allowedOrigins: Type.Array(Type.String()),
    mayMove: Type.Boolean(),
    signedUsers: Type.Boolean(),
    laneIds: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    revoked: Type.Boolean(),
    revokedAt: Type.Union([Type.String(), Type.Null()]),
    lastUsedAt: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
  },
  { title: 'EmbedKey' },
);

export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
export const Empty = Type.Null();

/**
 * Sends a board answer (JSON text) with a validator: `ETag` (a hash of the answer) and
 * `Cache-Control: private, no-cache`, so a browser asks again every time with `If-None-Match` and an
 * unchanged board comes back as 304 without its body. The answer is still built every time: the tag
 * saves the transfer and the client's parsing, not the server's work.
 */
export function sendBoardText(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
  const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
  return sendJsonText(reply, text);
}

/** Whether an `If-None-Match` header names this tag (weak or strong, in a list, or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Sends JSON that is already text (the board, built by Postgres): Fastify passes a string payload through
 * as it is, without the response schema's serialiser; the schema still documents the shape.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
