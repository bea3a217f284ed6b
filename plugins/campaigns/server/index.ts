import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { campaignsConfig } from './config';
import { campaignErrors } from './errors';
import { seedCampaignsDemo } from './seed/demo';
import { seedCampaignsFixtures } from './seed/fixtures';
import { checkNumbers } from './services/contact-lists.service';
import { campaignDispatcher, WAKE_TOPIC } from './services/dispatcher';
import { runImport } from './services/imports.service';
import { onAnswer, startDue, tick } from './services/lifecycle';
import { forgetSettings, SETTINGS_CHANGED } from './services/settings.service';

/** Each app's subscriptions (two apps in one test process keep theirs). */
const stopListening = new WeakMap<PluginContext, () => Promise<void>>();

/**
 * Campaigns (docs/product/automation.md, docs/product/roles-and-permissions.md#roles-in-automation): contact lists with spreadsheet imports, campaigns with their settings,
 * the dispatcher that sends them exactly once (docs/campaigns.md) and their live report.
 */
export default definePlugin({
  id: 'campaigns',
  config: campaignsConfig,
  errors: campaignErrors,
  permissions: { 'campaigns:manage': ['admin'] },
  jobs: {
    // the safety net: due campaigns, done ones, dead imports (every 15 s, one worker)
    'campaign-tick': { handler: async (_data, ctx) => tick(ctx) },
    // a campaign's start, queued for its scheduledAt
    'campaign-start': {
      handler: async (data, ctx, job) => (job.companyId === null ? false : startDue(ctx, job.companyId, Number(data.campaignId))),
    },
    'import-list': {
      handler: async (data, ctx, job) => (job.companyId === null ? false : runImport(ctx, job.companyId, Number(data.importId))),
      concurrency: 2,
    },
    'check-numbers': {
      handler: async (data, ctx, job) =>
        job.companyId === null ? false : checkNumbers(ctx, job.companyId, Number(data.contactListId)),
    },
  },
  schedules: [{ name: 'campaign-tick', everyMs: 15_000, job: 'campaign-tick' }],
  on: {
    'message.received': (payload, ctx) => onAnswer(ctx, payload),
  },
  seed: { demo: seedCampaignsDemo, fixtures: seedCampaignsFixtures },
  async register(_app, ctx) {
    const dispatcher = campaignDispatcher(ctx);
    const stopWake = await ctx.broadcast.subscribe(WAKE_TOPIC, () => dispatcher.wake());
    const stopSettings = await ctx.broadcast.subscribe(SETTINGS_CHANGED, (payload) =>
      forgetSettings(ctx, (payload as { companyId: number }).companyId),
    );
    // the dispatcher is long-lived work: only where jobs run
    if (ctx.config.role !== 'web' && ctx.config.CAMPAIGN_DISPATCHER === 'on') dispatcher.start();
    stopListening.set(ctx, async () => {
      await dispatcher.stop();
      await stopWake();
      await stopSettings();
    });
  },
  async close(ctx) {
    await stopListening.get(ctx)?.();
  },
});
