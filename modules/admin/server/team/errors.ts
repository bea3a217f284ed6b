import { defineErrors } from '@balcao/plugin-sdk/server';

/** The users and settings administration's own error codes (beyond 1-core §8), with their statuses. */
export const TEAM_ERRORS = {
  /** The company's plan allows no more users (2-administration §3 Plan `users`). */
  ERR_USER_LIMIT_REACHED: 403,
  /** A user tried to delete their own account. */
  ERR_CANNOT_DELETE_SELF: 400,
  /** The change would leave the company without an admin (deleting or demoting its last one). */
  ERR_LAST_ADMIN: 400,
  /** A message setting is required while its feature is on (2-administration §5 Settings). */
  ERR_SETTING_MESSAGE_REQUIRED: 400,
} as const;

export function registerTeamErrors(): void {
  defineErrors(TEAM_ERRORS);
}
