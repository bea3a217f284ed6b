import { ErrorResponse, Id, StrictObject, type TSchema, Type } from '@balcao/plugin-sdk/server';
import { type ServiceHours, WEEKDAYS_EN } from '@balcao/plugin-sdk/shared';
import {
  CONNECTION_CHANNELS,
  CONNECTION_STATUSES,
  type ConnectionChannel,
  type ConnectionStatusValue,
} from '../../shared/connection';

/** Schemas of the connection routes (docs/product/administration.md#calls-and-realtime-events Connections): bodies strict, answers complete. */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A count or a time in minutes/seconds (docs/product/administration.md#validation: numbers ≥ 0); the cap keeps timers sane. */
const Amount = Type.Integer({ minimum: 0, maximum: 1_000_000 });
/** A calendar day. */
const Day = Type.String({ format: 'date' });
const LongText = Type.String({ maxLength: 10_000 });

/** `HH:MM`, or empty for a closed shift. */
const Time = Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9])?$' });

export const ServiceHoursSchema = Type.Object(
  {
    weekday: Type.String({ maxLength: 20 }),
    weekdayEn: Type.Unsafe<ServiceHours['weekdayEn']>(Type.Union(WEEKDAYS_EN.map((day) => Type.Literal(day)))),
    startTimeA: Time,
    endTimeA: Time,
    startTimeB: Time,
    endTimeB: Time,
  },
  { additionalProperties: false },
);

const ChannelSchema = Type.Unsafe<ConnectionChannel>(Type.Union(CONNECTION_CHANNELS.map((channel) => Type.Literal(channel))));
const StatusSchema = Type.Unsafe<ConnectionStatusValue>(Type.Union(CONNECTION_STATUSES.map((status) => Type.Literal(status))));
const ChannelConfigSchema = Type.Object({}, { additionalProperties: true, maxProperties: 50 });

/** The editable fields; POST requires name and channel, PUT takes any of them but channel. */
export const editableFields = {
  // docs/product/administration.md#validation: 2 to 50 characters (checked again after trimming)
  name: Type.String({ minLength: 2, maxLength: 50 }),
  isDefault: Type.Boolean(),
  allowGroup: Type.Boolean(),
  groupAsTicket: Type.Union([Type.Literal('disabled'), Type.Literal('enabled')]),
  greetingMessage: LongText,
  complationMessage: LongText,
  outOfHoursMessage: LongText,
  ratingMessage: LongText,
  collectiveVacationMessage: LongText,
  collectiveVacationStart: Nullable(Day),
  collectiveVacationEnd: Nullable(Day),
  maxUseBotQueues: Amount,
  timeUseBotQueues: Amount,
  maxUseBotQueuesNPS: Amount,
  expiresTicket: Amount,
  whenExpiresTicket: Type.Union([Type.Literal(0), Type.Literal(1)]),
  expiresTicketNPS: Amount,
  expiresInactiveMessage: LongText,
  timeInactiveMessage: Amount,
  inactiveMessage: LongText,
  timeCreateNewTicket: Amount,
  timeSendQueue: Amount,
  sendIdQueue: Nullable(Id),
  integrationId: Nullable(Id),
  promptId: Nullable(Id),
  flowIdWelcome: Nullable(Id),
  flowIdNotPhrase: Nullable(Id),
  lgpdMessage: LongText,
  importOldMessages: Nullable(Day),
  importRecentMessages: Nullable(Day),
  importOldMessagesGroups: Type.Boolean(),
  closedTicketsPostImported: Type.Boolean(),
  queueIdImportMessages: Nullable(Id),
  queueIds: Type.Array(Id, { maxItems: 200, uniqueItems: true }),
  schedules: Type.Array(ServiceHoursSchema, { maxItems: 7 }),
  channelConfig: ChannelConfigSchema,
};

const optional = <T extends Record<string, TSchema>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

const { name, ...rest } = editableFields;

// companyId: the super user adding a connection to another company (All connections)
export const CreateConnectionBody = StrictObject({
  name,
  channel: ChannelSchema,
  companyId: Type.Optional(Id),
  ...optional(rest),
});
export const UpdateConnectionBody = StrictObject(optional(editableFields));

export const ConnectionParams = StrictObject({ whatsappId: Id });

/** `session` 0|1 (the session blob, which the API never hands out: null). */
const SessionFlag = Type.Union([Type.Literal(0), Type.Literal(1)], { default: 0 });

export const ListQuery = StrictObject({
  session: Type.Optional(SessionFlag),
  // sent by the documented client; ignored: the company is the session's
  companyId: Type.Optional(Id),
});
export const FilterQuery = StrictObject({ session: Type.Optional(SessionFlag), channel: Type.Optional(ChannelSchema) });
export const OneQuery = StrictObject({ session: Type.Optional(SessionFlag) });

const QueueSchema = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });

const connectionProperties = {
  id: Type.Integer(),
  name: Type.String(),
  number: Type.String(),
  channel: Type.String(),
  status: StatusSchema,
  isDefault: Type.Boolean(),
  allowGroup: Type.Boolean(),
  groupAsTicket: Type.String(),
  token: Type.String(),
  greetingMessage: Type.String(),
  complationMessage: Type.String(),
  outOfHoursMessage: Type.String(),
  ratingMessage: Type.String(),
  collectiveVacationMessage: Type.String(),
  collectiveVacationStart: Nullable(Type.String()),
  collectiveVacationEnd: Nullable(Type.String()),
  maxUseBotQueues: Type.Integer(),
  timeUseBotQueues: Type.Integer(),
  maxUseBotQueuesNPS: Type.Integer(),
  expiresTicket: Type.Integer(),
  whenExpiresTicket: Type.Integer(),
  expiresTicketNPS: Type.Integer(),
  expiresInactiveMessage: Type.String(),
  timeInactiveMessage: Type.Integer(),
  inactiveMessage: Type.String(),
  timeCreateNewTicket: Type.Integer(),
  timeSendQueue: Type.Integer(),
  sendIdQueue: Nullable(Type.Integer()),
  integrationId: Nullable(Type.Integer()),
  promptId: Nullable(Type.Integer()),
  flowIdWelcome: Nullable(Type.Integer()),
  flowIdNotPhrase: Nullable(Type.Integer()),
  queueIds: Type.Array(Type.Integer()),
  queues: Type.Array(QueueSchema),
  schedules: Type.Array(ServiceHoursSchema),
  greetingMediaAttachment: Nullable(Type.String()),
  greetingMediaUrl: Nullable(Type.String()),
  importOldMessages: Nullable(Type.String()),
  importRecentMessages: Nullable(Type.String()),
  importOldMessagesGroups: Type.Boolean(),
  closedTicketsPostImported: Type.Boolean(),
  queueIdImportMessages: Nullable(Type.Integer()),
  statusImportMessages: Nullable(Type.String()),
  updatedAt: Type.String(),
  qrcode: Type.String(),
  sessionError: Nullable(Type.String()),
  pairingCode: Nullable(Type.String()),
  companyId: Type.Integer(),
  provider: Type.String(),
  retries: Type.Integer(),
  lgpdMessage: Type.String(),
  channelConfig: Type.Object({}, { additionalProperties: true }),
  session: Type.Optional(Type.Null()),
};

export const ConnectionSchema = Type.Object(connectionProperties, { title: 'Connection' });
/**
 * A connection as an agent who may not manage connections sees it (the inbox's new-ticket dialog and
 * filters): what picks it, never its token, secrets or automation texts.
 */
export const ConnectionSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    channel: Type.String(),
    status: Type.String(),
    isDefault: Type.Boolean(),
  },
  { title: 'ConnectionSummary' },
);
export const ConnectionListSchema = Type.Array(Type.Union([ConnectionSchema, ConnectionSummarySchema]));
export const ConnectionOfCompanySchema = Type.Object({ ...connectionProperties, companyName: Type.String() });
export const TokenSchema = Type.Object({ token: Type.String() });
export const RestartAllSchema = Type.Object({ restarted: Type.Array(Type.Integer()), skipped: Type.Array(Type.Integer()) });

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;
