import { definePlugin } from '@balcao/plugin-sdk/server';
import { type BillingContext, billingConfig, gatewayName, gatewayProblems } from './config';
import { billingErrors } from './errors';
import { seedBillingDemo } from './seed/demo';
import { seedBillingFixtures } from './seed/fixtures';
import { chargePoll, invoiceRun } from './services/jobs';
import { closeBilling, openBilling } from './services/state';

/**
 * Billing (docs/billing.md, docs/product/administration.md "Invoices and subscription"): invoices made
 * ahead of each company's due date, the subscription page and its Pix checkout priced on the server,
 * payments confirmed by querying the gateway, and the super user's one-off and manual invoices. On for
 * the platform when a gateway is configured (BILLING_GATEWAY).
 */
export default definePlugin({
  id: 'billing',
  config: billingConfig,
  // `efi` without its settings, or the stand-in in production, stops the start (exit 78) like any bad variable
  checkConfig: (config, platform) => gatewayProblems(config, platform.env),
  // without a gateway nothing of billing shows: GET /plugins leaves it out, so its menu entries hide
  enabled: (ctx) => gatewayName(ctx.config) !== 'off',
  errors: billingErrors,
  jobs: {
    'invoice-run': { handler: async (_data, ctx) => invoiceRun(ctx as BillingContext) },
    'charge-poll': { handler: async (_data, ctx) => chargePoll(ctx as BillingContext) },
  },
  schedules: [
    { name: 'invoice-run', everyMs: 3_600_000, job: 'invoice-run' },
    { name: 'charge-poll', everyMs: 60_000, job: 'charge-poll' },
  ],
  seed: { demo: seedBillingDemo, fixtures: seedBillingFixtures },
  async register(_app, ctx) {
    await openBilling(ctx);
  },
  async close(ctx) {
    await closeBilling(ctx);
  },
});
