import { type TSchema, Type } from '@balcao/plugin-sdk/server';
import { ContactSummarySchema, QueueRefSchema, TagRefSchema } from '../directory/schemas';

/**
 * Response schemas of the ticket shapes of `shared/types.ts` (`Ticket`, `TicketLog`), for routes that
 * answer them (GET /tickets, GET /messages/:ticketUuid …). They list every field, so nothing is dropped on
 * serialisation.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `TicketStatus` (the literals of TICKET_STATUSES, written out so the static type stays exact). */
export const TicketStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('open'),
  Type.Literal('closed'),
  Type.Literal('group'),
  Type.Literal('lgpd'),
  Type.Literal('nps'),
]);

/** `TicketLogType` (the literals of TICKET_LOG_TYPES). */
export const TicketLogTypeSchema = Type.Union([
  Type.Literal('create'),
  Type.Literal('chatBot'),
  Type.Literal('queue'),
  Type.Literal('open'),
  Type.Literal('access'),
  Type.Literal('transfered'),
  Type.Literal('receivedTransfer'),
  Type.Literal('pending'),
  Type.Literal('closed'),
  Type.Literal('reopen'),
  Type.Literal('redirect'),
  Type.Literal('lane'),
  Type.Literal('lgpd'),
  Type.Literal('lgpdAccepted'),
  Type.Literal('lgpdRefused'),
  Type.Literal('nps'),
  Type.Literal('rated'),
  Type.Literal('inactive'),
  Type.Literal('expired'),
]);

export const UserRefSchema = Type.Object({ id: Type.Integer(), name: Type.String() }, { title: 'UserRef' });

export const TicketSchema = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String(),
    status: TicketStatusSchema,
    channel: Type.String(),
    isGroup: Type.Boolean(),
    isBot: Type.Boolean(),
    queueId: Nullable(Type.Integer()),
    queue: Nullable(QueueRefSchema),
    userId: Nullable(Type.Integer()),
    user: Nullable(UserRefSchema),
    contactId: Type.Integer(),
    contact: ContactSummarySchema,
    whatsappId: Nullable(Type.Integer()),
    whatsapp: Nullable(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        groupAsTicket: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
      }),
    ),
    lastMessage: Type.String(),
    unreadMessages: Type.Integer(),
    tags: Type.Array(TagRefSchema),
    userRating: Nullable(Type.Object({ rate: Type.Integer() })),
    useIntegration: Type.Boolean(),
    amountUsedBotQueues: Type.Integer(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'Ticket' },
);

export const TicketLogSchema = Type.Object(
  {
    id: Type.Integer(),
    type: TicketLogTypeSchema,
    ticketId: Type.Integer(),
    user: Nullable(UserRefSchema),
    queue: Nullable(QueueRefSchema),
    createdAt: Type.String(),
  },
  { title: 'TicketLog' },
);
