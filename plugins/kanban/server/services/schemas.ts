import { type FastifyReply, Type } from '@balcao/plugin-sdk/server';

/** A lane as `GET /tag/kanban` answers it. */
export const LaneSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.String(),
  kanban: Type.Integer(),
  timeLane: Type.Union([Type.Integer(), Type.Null()]),
  nextLaneId: Type.Union([Type.Integer(), Type.Null()]),
  greetingMessageLane: Type.Union([Type.String(), Type.Null()]),
  rollbackLaneId: Type.Union([Type.Integer(), Type.Null()]),
  ticketTags: Type.Integer(),
});

const TagRef = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String(), kanban: Type.Integer() });

/** A card (2-administration §3 Kanban ticket) and its lane. */
export const KanbanTicketSchema = Type.Object({
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
});

export const EmbedKeySchema = Type.Object({
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
});

export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
export const Empty = Type.Null();

/**
 * Sends JSON that is already text (the board, built by Postgres): Fastify passes a string payload through
 * as it is, without the response schema's serialiser; the schema still documents the shape.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
