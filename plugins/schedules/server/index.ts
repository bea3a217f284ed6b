import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { schedulesConfig } from './config';
import { scheduleErrors } from './errors';
import { seedSchedulesDemo } from './seed/demo';
import { seedSchedulesFixtures } from './seed/fixtures';
import { scheduleDispatcher } from './services/dispatcher';
import { WAKE_TOPIC } from './services/schedules.service';

/** Each app's subscriptions (two apps in one test process keep theirs). */
const stopListening = new WeakMap<PluginContext, () => Promise<void>>();

/**
 * Schedules (docs/product/automation.md#schedules, docs/schedules.md): messages to a contact at a set time,
 * once or repeated, on a calendar; sent exactly once by the dispatcher of every worker process.
 */
export default definePlugin({
  id: 'schedules',
  config: schedulesConfig,
  errors: scheduleErrors,
  seed: { demo: seedSchedulesDemo, fixtures: seedSchedulesFixtures },
  async register(_app, ctx) {
    const dispatcher = scheduleDispatcher(ctx);
    const stopWake = await ctx.broadcast.subscribe(WAKE_TOPIC, () => dispatcher.wake());
    // the dispatcher is long-lived work: only where jobs run
    if (ctx.config.role !== 'web' && ctx.config.SCHEDULE_DISPATCHER === 'on') dispatcher.start();
    stopListening.set(ctx, async () => {
      await dispatcher.stop();
      await stopWake();
    });
  },
  async close(ctx) {
    await stopListening.get(ctx)?.();
  },
});
