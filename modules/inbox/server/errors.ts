import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The inbox's own error codes (beyond the catalogue of docs/product/tickets-and-inbox.md#errors), with their
 * statuses. ERR_NO_QUEUE_FOUND and ERR_NO_TAG_FOUND are answered by other features too (administration,
 * connections, campaigns) about the inbox's queues and tags.
 */
export const inboxErrors = defineErrors({
  ERR_QUEUE_REQUIRED: 400,
  ERR_TICKET_TAG_REQUIRED: 400,
  ERR_TICKET_NOT_OPEN: 400,
  ERR_EMPTY_MESSAGE: 400,
  ERR_EDIT_WINDOW_EXPIRED: 400,
  ERR_MESSAGE_NOT_RETRYABLE: 400,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_NO_TAG_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_NOTE_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_ERASURE_CONFIRMATION: 400,
  ERR_ERASURE_OPEN_TICKET: 409,
});
