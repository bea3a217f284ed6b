import { defineErrors } from '@balcao/plugin-sdk/server';

/** The webhooks' own error codes (translated in ui/locales under errors.*). */
export const webhookErrors = defineErrors({
  /** No endpoint of the caller's company has this id. */
  ERR_NO_WEBHOOK_FOUND: 404,
  /** No delivery of this endpoint has this id. */
  ERR_NO_WEBHOOK_DELIVERY_FOUND: 404,
  /** Not an absolute http(s) address, or one with a user name or password in it. */
  ERR_WEBHOOK_URL_INVALID: 400,
  /** An address the platform doesn't reach: loopback, private, link-local, metadata (unless allowed). */
  ERR_WEBHOOK_URL_BLOCKED: 400,
  /** The company already has WEBHOOKS_MAX_PER_COMPANY endpoints. */
  ERR_WEBHOOK_LIMIT_REACHED: 409,
  /** A test delivery asked of a switched-off endpoint (nothing would send it until it is on again). */
  ERR_WEBHOOK_INACTIVE: 409,
});
