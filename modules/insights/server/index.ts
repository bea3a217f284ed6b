import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { insightsErrors } from './errors';
import { seedInsightsDemo } from './seed/demo';
import { FOLD_EVERY_MS, foldDeltas } from './services/fold';
import { announceMoment, MomentsAudience } from './services/moments.service';

let audience: MomentsAudience | null = null;
const audienceOf = (ctx: PluginContext) => {
  audience ??= new MomentsAudience(ctx.db.knex);
  return audience;
};

/** A ticket's announcements go out one after the other, so a panel never ends on an older state. */
const announcing = new Map<number, Promise<void>>();
function announce(ctx: PluginContext, companyId: number, ticketId: number): void {
  const previous = announcing.get(ticketId) ?? Promise.resolve();
  const next = previous
    .then(() => announceMoment(ctx, audienceOf(ctx), companyId, ticketId))
    .catch((error: unknown) => ctx.log.warn({ err: error, ticketId }, 'moments: announcing a ticket failed'))
    .finally(() => {
      if (announcing.get(ticketId) === next) announcing.delete(ticketId);
    });
  announcing.set(ticketId, next);
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
    'ticket.created': (payload, ctx) => announce(ctx, payload.companyId, payload.ticketId),
    'ticket.updated': (payload, ctx) => announce(ctx, payload.companyId, payload.ticketId),
    // who may watch the panel depends on users' profiles and allowRealTime
    'user.updated': (payload, ctx) => audienceOf(ctx).invalidate(payload.companyId),
  },
  seed: { demo: seedInsightsDemo },
});
