import './errors';
import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { seedKanbanDemo } from './seed/demo';
import { seedKanbanFixtures } from './seed/fixtures';
import { fireLaneTimer, onContactAnswer, onTagsChanged, sweepLaneTimers } from './services/lanes';
import { listenToBoardChanges, publishBoardChange } from './services/live';

/** Each app's subscription to board changes (two apps in one test process keep theirs). */
const stopListening = new WeakMap<PluginContext, () => Promise<void>>();

/**
 * The kanban (2-administration §2 Kanban and TagsKanban, §4, §7): the board over the inbox's kanban
 * tags, the lane automation (docs/kanban.md) and the embeddable widget's keys and public API.
 */
export default definePlugin({
  id: 'kanban',
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
  },
  seed: { demo: seedKanbanDemo, fixtures: seedKanbanFixtures },
  async register(_app, ctx) {
    stopListening.set(ctx, await listenToBoardChanges(ctx));
  },
  async close(ctx) {
    await stopListening.get(ctx)?.();
  },
});
