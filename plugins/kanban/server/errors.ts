import { defineErrors } from '@balcao/plugin-sdk/server';

/** The kanban's own error codes (translated in ui/locales under errors.*). */
export const kanbanErrors = defineErrors({
  ERR_NO_LANE_FOUND: 404,
  ERR_NO_EMBED_KEY_FOUND: 404,
  ERR_EMBED_KEY_REVOKED: 403,
  ERR_EMBED_ORIGIN_REFUSED: 403,
  ERR_EMBED_READ_ONLY: 403,
  ERR_EMBED_USER_TOKEN_REQUIRED: 401,
  ERR_EMBED_USER_TOKEN_INVALID: 401,
  ERR_EMBED_USER_TOKEN_EXPIRED: 401,
});
