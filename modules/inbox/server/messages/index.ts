import { registerRoutes } from '../area-routes';
import type { InboxArea } from '../index';
import { deliverMessageJob } from './deliver-message';
import messagesRoutes from './routes/messages';

/**
 * Messages: a ticket's pages, what agents send (text, media, replies, forwards, edits, deletes,
 * reactions) and the outbound delivery through the channels' drivers.
 */
export const messagesArea: InboxArea = {
  jobs: {
    'deliver-message': { handler: deliverMessageJob, concurrency: 4 },
  },
  register: (app, ctx) => registerRoutes(app, ctx, [messagesRoutes]),
};
