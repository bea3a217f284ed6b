import { defineErrors } from '@balcao/plugin-sdk/server';

/** The platform area's own error codes (translated under `admin.errors.*`). */
export const platformErrors = defineErrors({
  ERR_CANNOT_DELETE_OWN_COMPANY: 403,
  ERR_CANNOT_DEACTIVATE_OWN_COMPANY: 403,
  ERR_PLAN_IN_USE: 409,
  ERR_PLAN_NAME_ALREADY_EXISTS: 409,
  ERR_UNKNOWN_PLAN_FLAG: 400,
  ERR_NO_HELP_FOUND: 404,
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  ERR_NO_LOGO_FOUND: 404,
});
