import { ErrorResponse, Id, StrictObject, type TSchema, Type } from '@balcao/plugin-sdk/server';
import {
  CHATBOT_QUEUE_TYPES,
  type ChatbotQueueType,
  ROTATION_MINUTES,
  type ServiceHours,
  WEEKDAYS_EN,
} from '../../shared/queues';
import type { ChatbotInput, ChatbotNode } from './services/chatbot-tree';

/** How deep option trees nest (a menu of menus of menus …): deeper trees are refused by the schema. */
export const MAX_CHATBOT_DEPTH = 5;
/** Options per level: each is picked by its number in a menu. */
export const MAX_OPTIONS_PER_LEVEL = 20;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

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

export const SchedulesSchema = Type.Array(ServiceHoursSchema, { maxItems: 7 });

export const optionFields = {
  // docs/product/administration.md#validation: each chatbot option name is required, at least 4 characters
  name: Type.String({ minLength: 4, maxLength: 100 }),
  greetingMessage: Type.String({ maxLength: 10_000 }),
  queueType: Type.Unsafe<ChatbotQueueType>(Type.Union(CHATBOT_QUEUE_TYPES.map((type) => Type.Literal(type)))),
  optQueueId: Type.Optional(Nullable(Id)),
  optUserId: Type.Optional(Nullable(Id)),
  optIntegrationId: Type.Optional(Nullable(Id)),
  optFileId: Type.Optional(Nullable(Id)),
  closeTicket: Type.Optional(Type.Boolean()),
};

/**
 * A chatbot option as written, with its nested options down to `depth` more levels. Options that exist
 * carry their `id` (kept); options without one are created; the siblings' order is the array's.
 */
function optionInput(depth: number): TSchema {
  return StrictObject({
    id: Type.Optional(Id),
    ...optionFields,
    options: Type.Optional(
      Type.Array(depth > 1 ? optionInput(depth - 1) : Type.Never(), { maxItems: depth > 1 ? MAX_OPTIONS_PER_LEVEL : 0 }),
    ),
  });
}

/** A tree of options as a queue or a parent option takes it. */
export const ChatbotTreeInput = Type.Unsafe<ChatbotInput[]>(
  Type.Array(optionInput(MAX_CHATBOT_DEPTH), { maxItems: MAX_OPTIONS_PER_LEVEL }),
);

function optionOutput(depth: number): TSchema {
  return Type.Object({
    id: Id,
    queueId: Id,
    chatbotId: Nullable(Id),
    name: Type.String(),
    greetingMessage: Type.String(),
    queueType: Type.String(),
    optQueueId: Nullable(Id),
    optUserId: Nullable(Id),
    optIntegrationId: Nullable(Id),
    optFileId: Nullable(Id),
    closeTicket: Type.Boolean(),
    options: Type.Array(depth > 1 ? optionOutput(depth - 1) : Type.Never()),
  });
}

export const ChatbotOptionSchema = Type.Unsafe<ChatbotNode>(optionOutput(MAX_CHATBOT_DEPTH + 1));

/** The queue fields POST and PUT take (docs/product/administration.md#entities Queue, #validation). */
export const queueBodyFields = {
  name: Type.String({ minLength: 2, maxLength: 50 }),
  color: Type.String({ minLength: 3, maxLength: 9 }),
  greetingMessage: Type.Optional(Type.String({ maxLength: 10_000 })),
  outOfHoursMessage: Type.Optional(Type.String({ maxLength: 10_000 })),
  orderQueue: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 9999 }))),
  tempoRoteador: Type.Optional(Type.Union(ROTATION_MINUTES.map((minutes) => Type.Literal(minutes)))),
  ativarRoteador: Type.Optional(Type.Boolean()),
  integrationId: Type.Optional(Nullable(Id)),
  fileListId: Type.Optional(Nullable(Id)),
  closeTicket: Type.Optional(Type.Boolean()),
  schedules: Type.Optional(SchedulesSchema),
  chatbots: Type.Optional(ChatbotTreeInput),
};

const queueFieldsSchema = {
  id: Id,
  name: Type.String(),
  color: Type.String(),
  orderQueue: Nullable(Type.Integer()),
  greetingMessage: Type.String(),
  outOfHoursMessage: Type.String(),
  tempoRoteador: Type.Integer(),
  ativarRoteador: Type.Boolean(),
  integrationId: Nullable(Id),
  fileListId: Nullable(Id),
  closeTicket: Type.Boolean(),
  schedules: Type.Array(ServiceHoursSchema),
};

/** A queue with its option tree (`GET /queue/:queueId`, POST, PUT). */
export const QueueSchema = Type.Object({ ...queueFieldsSchema, chatbots: Type.Array(ChatbotOptionSchema) }, { title: 'Queue' });

export const CompanySchedulesSchema = Type.Object({
  schedules: Type.Array(ServiceHoursSchema),
  outOfHoursMessage: Type.String(),
});

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;
