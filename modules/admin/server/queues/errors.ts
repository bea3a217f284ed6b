import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The queues area's own codes. ERR_QUEUE_COLOR_ALREADY_EXISTS and ERR_WAPP_GREETING_REQUIRED are the
 * documented catalogue (registered by the core); ERR_NO_QUEUE_FOUND is the inbox's (queues are its basic
 * part). ERR_INVALID_SCHEDULE is this area's, and the connections' service hours answer it too.
 */
export const queuesErrors = defineErrors({
  ERR_NO_CHATBOT_FOUND: 404,
  /** The company's plan allows no more queues (`plans.queues`). */
  ERR_QUEUE_PLAN_LIMIT: 403,
  /** scheduleType is queue: a queue needs its out-of-hours message (docs/product/administration.md#validation). */
  ERR_OUT_OF_HOURS_MESSAGE_REQUIRED: 400,
  /** A shift ends before it starts, or a weekday appears twice. */
  ERR_INVALID_SCHEDULE: 400,
  /** An option of type queue names no queue of the company. */
  ERR_CHATBOT_QUEUE_REQUIRED: 400,
  /** An option of type attendent names no user of the company. */
  ERR_CHATBOT_USER_REQUIRED: 400,
  /** A file option's `optFileId` or a queue's `fileListId` names no file list of the company. */
  ERR_FILE_LIST_REQUIRED: 400,
  /** An option with nested options has no message (docs/product/administration.md#states-and-transitions: a next level needs a message). */
  ERR_CHATBOT_MESSAGE_REQUIRED: 400,
});
