import { definePlugin } from '@balcao/plugin-sdk/server';
import { type MessageApiContext, messageApiConfig } from './config';
import { messageApiErrors } from './errors';
import { seedMessageApiDemo } from './seed/demo';
import { purgeIdempotencyRecords } from './services/retention';

/**
 * The message API (docs/product/automation.md "Message API", docs/api.md "The message API"): outside
 * systems send messages with a connection's token or an API key, idempotently and within a rate limit;
 * the `/messages-api` page documents it, tests it and manages the company's API keys.
 */
export default definePlugin({
  id: 'message-api',
  config: messageApiConfig,
  errors: messageApiErrors,
  jobs: {
    // idempotency records older than the retention answer no retry any more
    'purge-idempotency': { handler: async (_data, ctx) => purgeIdempotencyRecords(ctx as MessageApiContext) },
  },
  schedules: [{ name: 'purge-idempotency', everyMs: 3_600_000, job: 'purge-idempotency' }],
  seed: { demo: seedMessageApiDemo },
});
