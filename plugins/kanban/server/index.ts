import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { kanbanConfig } from './config';
import { kanbanErrors } from './errors';
import { seedKanbanDemo } from './seed/demo';
import { seedKanbanFixtures } from './seed/fixtures';
import { fireLaneTimer, forgetRollbackLanes, onContactAnswer, onTagsChanged, sweepLaneTimers } from './services/lanes.service';
import { listenToBoardChanges, publishBoardChange } from './services/live';

/** The broadcast topic of "a company's lanes changed" (another process's cached rollback lanes go). */
const LANES_CHANGED = 'lanes-changed';

/** Each app's subscriptions (two apps in one test process keep theirs). */
const stopListening = new WeakMap<PluginContext, () => Promise<void>>();

/**
 * The kanban (docs/product/administration.md#tags-and-kanban, #states-and-transitions, #calls-and-realtime-events): the board over the inbox's kanban
 * tags, the lane automation (docs/kanban.md) and the embeddable widget's keys and public API.
 */
export default definePlugin({
  id: 'kanban',
  config: kanbanConfig,
  errors: kanbanErrors,
  jobs: {
    // a card's lane timer (timeLane minutes → nextLaneId)
    'lane-timeout': {
      handler: async (data, ctx, job) =>
        job.companyId === null ? false : fireLaneTimer(ctx, job.companyId, Number(data.ticketId), String(data.entryId)),
      concurrency: 2,
    },
    'lane-sweep': { handler: async (_data, ctx) => sweepLaneTimers(ctx) },
  },
  schedules: [{ name: 'lane-sweep', everyMs: 60_000, job: 'lane-sweep' }],
  on: {
    'ticket.tagsChanged': (payload, ctx) => onTagsChanged(ctx, payload),
    'message.received': async (payload, ctx) => {
      if (!payload.fromMe && !payload.ticketCreated) await onContactAnswer(ctx, payload.companyId, payload.ticketId);
      publishBoardChange(ctx, payload.companyId, { ticketId: payload.ticketId });
    },
    'ticket.created': (payload, ctx) => publishBoardChange(ctx, payload.companyId, { ticketId: payload.ticketId }),
    'ticket.updated': (payload, ctx) => publishBoardChange(ctx, payload.companyId, { ticketId: payload.ticketId }),
    // lanes are tags: every process forgets what it knew of the company's rollback lanes
    'tag.changed': async (payload, ctx) => {
      forgetRollbackLanes(ctx, payload.companyId);
      await ctx.broadcast.publish(LANES_CHANGED, { companyId: payload.companyId });
    },
  },
  seed: { demo: seedKanbanDemo, fixtures: seedKanbanFixtures },
  async register(_app, ctx) {
    const stopBoard = await listenToBoardChanges(ctx);
    const stopLanes = await ctx.broadcast.subscribe(LANES_CHANGED, (payload) =>
      forgetRollbackLanes(ctx, (payload as { companyId: number }).companyId),
    );
    stopListening.set(ctx, async () => {
      await stopBoard();
      await stopLanes();
    });
  },
  async close(ctx) {
    await stopListening.get(ctx)?.();
  },
});
