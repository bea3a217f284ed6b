import type { InboxArea } from '../index';
import { deliverMessageJob } from './deliver-message';

/**
 * Messages: a ticket's pages, what agents send (text, media, replies, forwards, edits, deletes,
 * reactions) and the outbound delivery through the channels' drivers.
 */
export const messagesArea: InboxArea = {
  jobs: {
    'deliver-message': { handler: deliverMessageJob, concurrency: 4 },
  },
};
