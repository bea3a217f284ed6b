/**
 * The events a webhook endpoint subscribes to (docs/api.md "Webhooks"), shared by the server and the page.
 * `webhook.test` is not subscribable: it is what "Send a test" delivers to one endpoint.
 */
export const WEBHOOK_EVENTS = [
  'message.received',
  'message.sent',
  'ticket.created',
  'ticket.updated',
  'ticket.closed',
  'contact.created',
  'campaign.finished',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const TEST_EVENT = 'webhook.test';
