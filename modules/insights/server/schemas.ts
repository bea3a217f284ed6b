import { type TSchema, Type } from '@balcao/plugin-sdk/server';

/** Response schemas of the insights' routes (shapes in ../shared/types.ts). */

const Minutes = Type.Number({ description: 'minutes' });

export const DashboardCountersSchema = Type.Object({
  supportHappening: Type.Integer(),
  supportPending: Type.Integer(),
  supportFinished: Type.Integer(),
  supportGroups: Type.Integer(),
  leads: Type.Integer(),
  avgSupportTime: Minutes,
  avgWaitTime: Minutes,
  activeTickets: Type.Integer(),
  passiveTickets: Type.Integer(),
  npsScore: Type.Number(),
  npsPromotersPerc: Type.Number(),
  npsPassivePerc: Type.Number(),
  npsDetractorsPerc: Type.Number(),
  tickets: Type.Integer(),
  waitRating: Type.Integer(),
  withoutRating: Type.Integer(),
  withRating: Type.Integer(),
  percRating: Type.Number(),
  npsDistribution: Type.Array(Type.Integer(), { minItems: 11, maxItems: 11 }),
  avgRating: Type.Number(),
});

export const DashboardAttendantSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  rating: Type.Number(),
  countRating: Type.Integer(),
  tickets: Type.Integer(),
  avgWaitTime: Minutes,
  avgSupportTime: Minutes,
  online: Type.Boolean(),
});

export const DayRangeSchema = Type.Object({ from: Type.String(), to: Type.String(), timezone: Type.String() });

export const DashboardSchema = Type.Object(
  {
    counters: DashboardCountersSchema,
    attendants: Type.Array(DashboardAttendantSchema),
    range: DayRangeSchema,
  },
  { title: 'Dashboard' },
);

export const TicketsDaySchema = Type.Object({
  count: Type.Integer(),
  data: Type.Array(
    Type.Object({
      date: Type.Optional(Type.String()),
      hour: Type.Optional(Type.Integer()),
      total: Type.Integer(),
      finished: Type.Integer(),
    }),
  ),
});

export const TicketsUsersSchema = Type.Object({
  data: Type.Array(Type.Object({ userId: Type.Integer(), name: Type.String(), tickets: Type.Integer() })),
});

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ReportTicketSchema = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String(),
    whatsappName: Nullable(Type.String()),
    contactName: Type.String(),
    userId: Nullable(Type.Integer()),
    userName: Nullable(Type.String()),
    queueName: Nullable(Type.String()),
    status: Type.String(),
    lastMessage: Type.String(),
    createdAt: Type.String(),
    closedAt: Nullable(Type.String()),
    supportTime: Nullable(Type.Integer()),
    NPS: Nullable(Type.Integer()),
  },
  { title: 'ReportTicket' },
);

export const ReportSchema = Type.Object({
  tickets: Type.Array(ReportTicketSchema),
  totalTickets: Type.Object({ total: Type.Integer() }),
});

export const MomentTicketSchema = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  status: Type.String(),
  isGroup: Type.Boolean(),
  contact: Type.Object({ id: Type.Integer(), name: Type.String(), urlPicture: Nullable(Type.String()) }),
  user: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  queue: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() })),
  lastMessage: Type.String(),
  since: Type.String(),
  updatedAt: Type.String(),
});

export const MomentUserSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  profile: Type.Union([Type.Literal('admin'), Type.Literal('user')]),
  online: Type.Boolean(),
});

/** A calendar day, `YYYY-MM-DD` (its existence is checked by the range rules). */
export const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
