import { ErrorResponse, Id, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { WEBHOOK_EVENTS } from '../../shared/events';

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

export const Empty = Type.Null();

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const WebhookEventName = Type.Union(WEBHOOK_EVENTS.map((event) => Type.Literal(event)));

export const WebhookBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  url: Type.String({ minLength: 8, maxLength: 2000, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' }),
  events: Type.Array(WebhookEventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
  active: Type.Optional(Type.Boolean()),
});

export const WebhookSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  /** The secret is never answered after it is shown once: only that one is set. */
  secretMasked: Type.String(),
  failingSince: Nullable(Type.String()),
  disabledAt: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const WebhookWithSecret = Type.Object({ webhook: WebhookSchema, secret: Type.String() });

export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookSchema) });

export const DeliverySchema = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  event: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  responseStatus: Nullable(Type.Integer()),
  durationMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  occurredAt: Type.String(),
  lastAttemptAt: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String()),
  redeliveryOf: Nullable(Type.Integer()),
});

export const DeliveryPage = Type.Object({
  deliveries: Type.Array(DeliverySchema),
  count: Type.Integer(),
  hasMore: Type.Boolean(),
});

export const DeliveryQuery = StrictObject({ pageNumber: Type.Optional(PageNumber) });

export const DeliveryParams = StrictObject({ id: Id, deliveryId: Id });
