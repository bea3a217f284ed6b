import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The Meta channels' error codes. Their texts live in the channels plugin's locales (errors.*): this plugin
 * has no UI of its own, and the channels remote is the one the shell loads after login. Graph's own error
 * codes are mapped to these in graph/errors.ts: a failed send keeps one of them on the message, shown to
 * the agent.
 */
export const metaErrors = defineErrors({
  /** The Meta app is not configured on this server (META_APP_ID, META_APP_SECRET, META_VERIFY_TOKEN). */
  ERR_META_NOT_CONFIGURED: 404,
  /** The Graph refused the token (expired, revoked, or not one for this number, page or account). */
  ERR_META_TOKEN_INVALID: 400,
  /** Connection fields missing or malformed (phone number id, business account id, token). */
  ERR_META_CONFIG_INVALID: 400,
  /** The number, page or account is connected already (by this company or another). */
  ERR_META_ACCOUNT_IN_USE: 409,
  /** A webhook whose X-Hub-Signature-256 doesn't match its body under the app secret. */
  ERR_META_SIGNATURE_INVALID: 401,
  /** The verify-token handshake named another token. */
  ERR_META_VERIFY_TOKEN_INVALID: 403,
  /** A webhook that names no connected number, page or account. */
  ERR_META_UNKNOWN_ACCOUNT: 404,
  /** The Graph asks us to slow down; the message is retried by itself. */
  ERR_META_RATE_LIMITED: 429,
  /** The 24-hour window is closed: WhatsApp takes only an approved template, Messenger only HUMAN_AGENT within 7 days. */
  ERR_META_WINDOW_CLOSED: 409,
  /** The Graph refused the message (recipient unreachable, unsupported content, policy). */
  ERR_META_SEND_REFUSED: 422,
  /**
   * A Messenger or Instagram send cut off by a crash before its answer was recorded, and no echo of it came:
   * the page may or may not have it, so it is not sent again by itself (the agent checks and retries).
   */
  ERR_META_SEND_UNCONFIRMED: 409,
  /** The Graph could not be reached or failed; the message is retried by itself. */
  ERR_META_UNAVAILABLE: 503,
  /** The template named is not an approved one of the account, or its variables don't fit. */
  ERR_META_TEMPLATE_INVALID: 400,
  /** `POST /facebook`: none of the pages named is one the user token manages. */
  ERR_META_PAGE_NOT_FOUND: 404,
});
