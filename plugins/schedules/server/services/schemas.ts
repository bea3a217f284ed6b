import { ErrorResponse, Id, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { MAX_INTERVAL_VALUE, MAX_SENDS } from '../../shared/schedules';

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

export const Empty = Type.Null();

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const DateText = Type.String();

const TicketStatus = Type.Union([Type.Literal('closed'), Type.Literal('pending'), Type.Literal('open')]);
const OpenTicket = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);
/** 1 days, 2 weeks, 3 months. */
const IntervalUnit = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]);
/** 4 any day, 5 business days within the company's hours. */
const DaysKind = Type.Union([Type.Literal(4), Type.Literal(5)]);

export const ScheduleQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  pageNumber: Type.Optional(PageNumber),
  // ours: the calendar asks for the range it shows, the contact drawer for one contact's schedules
  contactId: Type.Optional(Id),
  start: Type.Optional(Type.String({ format: 'date-time' })),
  end: Type.Optional(Type.String({ format: 'date-time' })),
});

export const ScheduleSchema = Type.Object(
  {
    id: Type.Integer(),
    body: Type.String(),
    sendAt: DateText,
    dueAt: DateText,
    contactId: Type.Integer(),
    contact: Type.Object({ id: Type.Integer(), name: Type.String(), number: Type.String() }),
    userId: Nullable(Type.Integer()),
    ticketUserId: Nullable(Type.Integer()),
    queueId: Nullable(Type.Integer()),
    whatsappId: Nullable(Type.Integer()),
    intervalo: Type.Integer(),
    valorIntervalo: Type.Integer(),
    enviarQuantasVezes: Type.Integer(),
    tipoDias: Type.Integer(),
    openTicket: OpenTicket,
    statusTicket: TicketStatus,
    assinar: Type.Boolean(),
    mediaPath: Nullable(Type.String()),
    mediaName: Nullable(Type.String()),
    mediaUrl: Nullable(Type.String()),
    status: Type.String(),
    sentAt: Nullable(DateText),
    sentCount: Type.Integer(),
    ticketId: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    createdAt: DateText,
    updatedAt: DateText,
  },
  { title: 'Schedule' },
);

/** The dialog's fields (docs/product/automation.md#schedules). */
export const ScheduleBody = StrictObject({
  body: Type.String({ minLength: 1, maxLength: 4096 }),
  sendAt: Type.String({ format: 'date-time' }),
  contactId: Id,
  intervalo: Type.Optional(IntervalUnit),
  valorIntervalo: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INTERVAL_VALUE })),
  enviarQuantasVezes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SENDS })),
  tipoDias: Type.Optional(DaysKind),
  openTicket: Type.Optional(OpenTicket),
  statusTicket: Type.Optional(TicketStatus),
  ticketUserId: Type.Optional(Nullable(Id)),
  queueId: Type.Optional(Nullable(Id)),
  whatsappId: Type.Optional(Nullable(Id)),
  assinar: Type.Optional(Type.Boolean()),
  // the documented client sends it; the company is always the session's
  companyId: Type.Optional(Id),
});

export const SchedulePage = Type.Object({
  schedules: Type.Array(ScheduleSchema),
  count: Type.Integer(),
  hasMore: Type.Boolean(),
});
