import { defineErrors } from '@balcao/plugin-sdk/server';

/** The webchat channel's error codes (plugins/channels/shared/webchat.ts lists what each means). */
export const webchatErrors = defineErrors({
  ERR_WEBCHAT_NOT_FOUND: 404,
  ERR_WEBCHAT_ORIGIN_REFUSED: 403,
  ERR_WEBCHAT_SESSION_INVALID: 401,
  ERR_WEBCHAT_IDENTITY_INVALID: 401,
  ERR_WEBCHAT_IDENTITY_EXPIRED: 401,
  ERR_WEBCHAT_PRECHAT_REQUIRED: 400,
  ERR_WEBCHAT_INVALID_EMAIL: 400,
  ERR_WEBCHAT_INVALID_PHONE: 400,
  ERR_WEBCHAT_INVALID_MESSAGE: 400,
  ERR_WEBCHAT_CONFIG_INVALID: 400,
  // the connection is stopped: a state of the connection, not of the server (so no 5xx)
  ERR_WEBCHAT_OFFLINE: 409,
  ERR_WEBCHAT_RATE_LIMITED: 429,
  ERR_WEBCHAT_TOO_LARGE: 413,
  ERR_WEBCHAT_TYPE_REFUSED: 415,
});
