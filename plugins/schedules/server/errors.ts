import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The schedules' own error codes (translated in ui/locales under errors.*). They also answer the inbox's
 * ERR_NO_CONTACT_FOUND and ERR_NO_QUEUE_FOUND, the core's ERR_NO_USER_FOUND and ERR_NO_WAPP_FOUND.
 */
export const scheduleErrors = defineErrors({
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_SCHEDULE_INVALID_DATE: 400,
  ERR_SCHEDULE_DATE_PAST: 400,
  ERR_SCHEDULE_NO_CONNECTION: 400,
  ERR_SCHEDULE_CONTACT_NO_NUMBER: 400,
  ERR_SCHEDULE_OUTSIDE_WINDOW: 400,
  ERR_SCHEDULE_SENDING: 409,
  ERR_SCHEDULE_MEDIA_TYPE: 415,
});
