import { definePlugin } from '@balcao/plugin-sdk/server';
import { messageApiConfig } from './config';
import { messageApiErrors } from './errors';
import { seedMessageApiDemo } from './seed/demo';

/**
 * The message API (docs/product/automation.md "Message API", docs/api.md "The message API"): outside
 * systems send messages with a connection's token or an API key, idempotently and within a rate limit;
 * the `/messages-api` page documents it, tests it and manages the company's API keys.
 */
export default definePlugin({
  id: 'message-api',
  config: messageApiConfig,
  errors: messageApiErrors,
  seed: { demo: seedMessageApiDemo },
});
