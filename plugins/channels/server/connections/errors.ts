import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The connections' own error codes (beyond ERR_NO_WAPP_FOUND, ERR_NO_OTHER_WHATSAPP,
 * ERR_NO_DEF_WAPP_FOUND, ERR_WAPP_GREETING_REQUIRED of docs/product/tickets-and-inbox.md#errors), with their statuses; translated in ui/locales under
 * errors.*. The connections also answer ERR_NO_QUEUE_FOUND (the inbox's) and ERR_INVALID_SCHEDULE (the
 * administration's queues area).
 */
export const connectionErrors = defineErrors({
  /** The plan's `connections` are all used; the answer carries `limit`. */
  ERR_CONNECTION_PLAN_LIMIT: 403,
  /** docs/product/administration.md#validation: ratings are on (userRating) and the connection has no rating message. */
  ERR_RATING_MESSAGE_REQUIRED: 400,
  /** docs/product/administration.md#validation: ratings are on and expiresTicketNPS is zero. */
  ERR_EXPIRES_NPS_REQUIRED: 400,
  /** docs/product/administration.md#validation: timeSendQueue and sendIdQueue go together. */
  ERR_SEND_QUEUE_REQUIRED: 400,
  /** A collective vacation message needs its start and end dates. */
  ERR_VACATION_DATES_REQUIRED: 400,
  /** The vacation ends before it starts. */
  ERR_VACATION_DATES_INVALID: 400,
  /** The message import window: start within 2 years back and not in the future, end between start and today. */
  ERR_IMPORT_DATES_INVALID: 400,
  /** integrationId, promptId or a flow id names nothing of the company (or its feature isn't installed). */
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_NO_FLOW_FOUND: 404,
  /** The channel has no running implementation in this installation (the Graph API channels: no driver of theirs is registered). */
  ERR_CHANNEL_NOT_AVAILABLE: 409,
  /** `channelConfig` given for a channel that keeps no settings. */
  ERR_CHANNEL_CONFIG_INVALID: 400,
});
