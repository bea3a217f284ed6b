import { defineErrors } from '@balcao/plugin-sdk/server';

/**
 * The WhatsApp channel's outbound error codes with their statuses. ERR_WAPP_INVALID_CONTACT is a catalogue
 * code of docs/product/tickets-and-inbox.md#errors ("not a valid number") that the core registers with the same status; registering it here
 * too keeps this folder's throws valid on their own (`defineErrors` accepts a code again with its status).
 */
export const WHATSAPP_OUTBOUND_ERRORS = defineErrors({
  /** The ticket's contact has no identifier or number WhatsApp can address (or a group ticket no group JID). */
  ERR_WAPP_INVALID_CONTACT: 400,
});
