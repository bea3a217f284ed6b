import { defineErrors } from '@balcao/plugin-sdk/server';

/** The users and settings administration's own error codes (beyond docs/product/tickets-and-inbox.md#errors), with their statuses. */
export const teamErrors = defineErrors({
  /** The company's plan allows no more users (docs/product/administration.md#entities Plan `users`). */
  ERR_USER_LIMIT_REACHED: 403,
  /** A user tried to delete their own account. */
  ERR_CANNOT_DELETE_SELF: 400,
  /** The change would leave the company without an admin (deleting or demoting its last one). */
  ERR_LAST_ADMIN: 400,
  /** A message setting is required while its feature is on (docs/product/administration.md#validation Settings). */
  ERR_SETTING_MESSAGE_REQUIRED: 400,
});
