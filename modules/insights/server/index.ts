import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { insightsErrors } from './errors';
import { seedInsightsDemo } from './seed/demo';
import { FOLD_EVERY_MS, foldDeltas } from './services/fold';
import { MomentsAnnouncer, MomentsAudience } from './services/moments.service';

let audience: MomentsAudience | null = null;
const audienceOf = (ctx: PluginContext) => {
  audience ??= new MomentsAudience(ctx.db.knex);
  return audience;
};

const announcers = new WeakMap<PluginContext, MomentsAnnouncer>();
/** The panel's announcements of an app (one per plugin context: two apps in one test process keep theirs). */
function announcerOf(ctx: PluginContext): MomentsAnnouncer {
  let announcer = announcers.get(ctx);
  if (!announcer) {
    announcer = new MomentsAnnouncer(ctx, audienceOf(ctx));
    announcers.set(ctx, announcer);
  }
  return announcer;
}

/**
 * Insights (docs/insights.md): the dashboard's figures (kept by triggers on the inbox's tickets and ratings,
 * folded into days by a schedule), the ticket report and its export, and Moments, live over the company's
 * socket. Every plan has it.
 */
export default definePlugin({
  id: 'insights',
  errors: insightsErrors,
  jobs: {
    fold: {
      handler: async (_data, ctx) => {
        const moved = await foldDeltas(ctx.db.knex);
        if (moved > 0) ctx.log.debug({ moved }, 'insights: changes folded into days');
      },
    },
  },
  schedules: [{ name: 'fold', everyMs: FOLD_EVERY_MS, job: 'fold' }],
  on: {
    // the panel's cards follow the tickets; announcing runs after the change, outside the inbox's path
    'ticket.created': (payload, ctx) => announcerOf(ctx).announce(payload.companyId, payload.ticketId),
    'ticket.updated': (payload, ctx) => announcerOf(ctx).announce(payload.companyId, payload.ticketId),
    // who may watch the panel depends on users' profiles and allowRealTime
    'user.updated': (payload, ctx) => audienceOf(ctx).invalidate(payload.companyId),
  },
  seed: { demo: seedInsightsDemo },
});
