import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';
import { type WebhooksContext, webhooksConfig } from './config';
import { webhookErrors } from './errors';
import { seedWebhooksFixtures } from './seed/fixtures';
import { mailDisableNotices, NOTICE_EVERY_MS, NOTICE_JOB } from './services/disable-mail';
import { webhookDispatcher } from './services/dispatcher';
import { webhookHandlers } from './services/events';
import { ENDPOINTS_CHANGED_TOPIC, outboxOf, WAKE_TOPIC } from './services/outbox';
import { SWEEP_EVERY_MS, sweepDeliveries } from './services/retention';
import { secretsKey } from './services/secrets';

/** Each app's subscriptions (two apps in one test process keep theirs). */
const stopListening = new WeakMap<PluginContext, () => Promise<void>>();

/**
 * Outbound webhooks (docs/api.md "Webhooks"): a company admin registers URLs for the company's events; each
 * event is written to an outbox row per subscribed endpoint and delivered, signed, by the dispatcher of
 * every worker process, retried for 24 hours — at least once.
 */
export default definePlugin({
  id: 'webhooks',
  config: webhooksConfig,
  errors: webhookErrors,
  on: webhookHandlers(),
  jobs: {
    // deliveries past their day marked failed; final ones past WEBHOOKS_RETENTION_DAYS deleted
    'sweep-deliveries': { handler: async (_data, ctx) => sweepDeliveries(ctx as WebhooksContext) },
    // the e-mail of an endpoint disabled after failing for a day, once per disable
    [NOTICE_JOB]: { handler: async (_data, ctx) => mailDisableNotices(ctx as WebhooksContext) },
  },
  schedules: [
    { name: 'sweep-deliveries', everyMs: SWEEP_EVERY_MS, job: 'sweep-deliveries' },
    { name: NOTICE_JOB, everyMs: NOTICE_EVERY_MS, job: NOTICE_JOB },
  ],
  seed: { fixtures: seedWebhooksFixtures },
  async register(_app, rawCtx) {
    const ctx = rawCtx as WebhooksContext;
    // a production start without the sealing key fails here, not at the first endpoint created
    secretsKey(ctx);
    const dispatcher = webhookDispatcher(ctx);
    const stopWake = await ctx.broadcast.subscribe(WAKE_TOPIC, () => dispatcher.wake());
    const stopEndpoints = await ctx.broadcast.subscribe(ENDPOINTS_CHANGED_TOPIC, (payload) =>
      outboxOf(ctx).forget((payload as { companyId: number }).companyId),
    );
    // the dispatcher is long-lived work: only where jobs run
    if (ctx.config.role !== 'web' && ctx.config.WEBHOOKS_DISPATCHER === 'on') dispatcher.start();
    stopListening.set(ctx, async () => {
      await dispatcher.close();
      await stopWake();
      await stopEndpoints();
    });
  },
  async close(ctx) {
    await stopListening.get(ctx)?.();
  },
});
