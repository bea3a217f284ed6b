import { ErrorResponse, Type } from '@balcao/plugin-sdk/server';
import { CHANNELS } from '../../shared/types';

/**
 * Response schemas of the directory routes (contacts, tags, notes, quick messages, queues, users), the
 * JSON shapes of shared/types.ts. Fastify serializes through them, so a field missing here is dropped.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const ChannelSchema = Type.Union(CHANNELS.map((channel) => Type.Literal(channel)));

export const TagRefSchema = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() }, { title: 'TagRef' });

export const QueueRefSchema = Type.Object(
  { id: Type.Integer(), name: Type.String(), color: Type.String() },
  { title: 'QueueRef' },
);

export const ContactSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    number: Nullable(Type.String()),
    email: Nullable(Type.String()),
    active: Type.Boolean(),
    disableBot: Type.Boolean(),
    acceptAudioMessage: Type.Boolean(),
    lgpdAcceptedAt: Nullable(Type.String()),
    urlPicture: Nullable(Type.String()),
    isGroup: Type.Boolean(),
    channel: Type.String(),
    whatsappId: Nullable(Type.Integer()),
    whatsapp: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
    extraInfo: Type.Array(Type.Object({ id: Type.Optional(Type.Integer()), name: Type.String(), value: Type.String() })),
    tags: Type.Array(TagRefSchema),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'Contact' },
);

export const ContactSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    number: Nullable(Type.String()),
    email: Nullable(Type.String()),
    urlPicture: Nullable(Type.String()),
    isGroup: Type.Boolean(),
    channel: Type.String(),
    disableBot: Type.Boolean(),
    active: Type.Boolean(),
  },
  { title: 'ContactSummary' },
);

export const TagSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String(),
    kanban: Type.Integer(),
    userId: Nullable(Type.Integer()),
    timeLane: Nullable(Type.Integer()),
    nextLaneId: Nullable(Type.Integer()),
    greetingMessageLane: Nullable(Type.String()),
    rollbackLaneId: Nullable(Type.Integer()),
    ticketTags: Type.Integer(),
    contacts: Type.Integer(),
  },
  { title: 'Tag' },
);

export const TicketNoteSchema = Type.Object(
  {
    id: Type.Integer(),
    note: Type.String(),
    ticketId: Type.Integer(),
    contactId: Type.Integer(),
    userId: Nullable(Type.Integer()),
    user: Nullable(Type.Object({ name: Type.String() })),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'TicketNote' },
);

export const QuickMessageSchema = Type.Object(
  {
    id: Type.Integer(),
    shortcode: Type.String(),
    message: Type.String(),
    geral: Type.Boolean(),
    visao: Type.Boolean(),
    status: Type.Boolean(),
    userId: Nullable(Type.Integer()),
    isMedia: Type.Boolean(),
    mediaPath: Nullable(Type.String()),
    mediaName: Nullable(Type.String()),
    mediaUrl: Nullable(Type.String()),
  },
  { title: 'QuickMessage' },
);

export const QueueSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    color: Type.String(),
    orderQueue: Type.Union([Type.Integer(), Type.Null()]),
    greetingMessage: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'QueueListItem' },
);

export const UserListItemSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    profile: Type.String(),
    online: Type.Boolean(),
    queues: Type.Array(QueueRefSchema),
  },
  { title: 'UserListItem' },
);

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

/** No content. */
export const Empty = Type.Null();

/** A query-string boolean (`true` / `false`, coerced by the query validator). */
export const QueryBoolean = Type.Boolean();

/** A search text as the lists take it. */
export const SearchParam = Type.String({ maxLength: 200 });
