import type { InboxArea } from '../index';
import { deliverMessageJob } from './deliver-message';
import { PENDING_SWEEP_EVERY_MS, sweepPendingDeliveries } from './pending-sweep';

/**
 * Messages: a ticket's pages, what agents send (text, media, replies, forwards, edits, deletes,
 * reactions) and the outbound delivery through the channels' drivers.
 */
export const messagesArea: InboxArea = {
  jobs: {
    'deliver-message': { handler: deliverMessageJob, concurrency: 4 },
    'pending-delivery-sweep': {
      handler: async (_data, ctx) => {
        await sweepPendingDeliveries(ctx);
      },
    },
  },
  schedules: [{ name: 'pending-delivery-sweep', everyMs: PENDING_SWEEP_EVERY_MS, job: 'pending-delivery-sweep' }],
};
