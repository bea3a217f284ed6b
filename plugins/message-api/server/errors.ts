import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The message API's own error codes (translated in ui/locales under errors.*). It also answers the core's
 * ERR_NO_USER_FOUND and ERR_VALIDATION, the inbox's ERR_NO_QUEUE_FOUND and ERR_UNSUPPORTED_MEDIA_TYPE.
 */
export const messageApiErrors = defineErrors({
  /** No token, or one that is neither a connection's token nor a valid API key. */
  ERR_MESSAGE_API_TOKEN_INVALID: 401,
  /** An API key names a connection (`whatsappId`) its company doesn't have, or the company has none. */
  ERR_MESSAGE_API_NO_CONNECTION: 404,
  /** The token sent more than its rate limit allows in the current window. */
  ERR_MESSAGE_API_RATE_LIMITED: 429,
  /** An `Idempotency-Key` already used with another request body. */
  ERR_IDEMPOTENCY_KEY_REUSED: 422,
  /** Neither a text nor a file to send. */
  ERR_MESSAGE_API_EMPTY: 400,
});
