import type { InboxArea } from '../index';
import { applyRetention, companiesWithRetention } from './privacy.service';

/** How often the retention sweep looks for messages past their company's retention. */
export const RETENTION_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Privacy: the company's LGPD duties — one contact's data exported or erased (routes/), and the
 * retention of messages, applied by a durable job per company that an hourly schedule enqueues.
 */
export const privacyArea: InboxArea = {
  jobs: {
    // the schedule's tick, without a company: one job per company with a retention. The id names the hour, so a
    // job a killed worker left behind never blocks the next hour's; two runs of a company never overlap (its claim)
    'retention-sweep': {
      handler: async (_data, ctx) => {
        const hour = Math.floor(Date.now() / RETENTION_SWEEP_EVERY_MS);
        for (const companyId of await companiesWithRetention(ctx.db.knex)) {
          await ctx.jobs.enqueue('retention', {}, { companyId, jobId: `retention-${hour}` });
        }
      },
    },
    retention: {
      handler: async (_data, ctx, job) => {
        if (job.companyId === null) return;
        const removed = await applyRetention(ctx, job.companyId);
        if (removed.messages > 0) ctx.log.info({ companyId: job.companyId, ...removed }, 'retention: old messages removed');
      },
    },
  },
  schedules: [{ name: 'retention', everyMs: RETENTION_SWEEP_EVERY_MS, job: 'retention-sweep' }],
};
