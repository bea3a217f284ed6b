import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The message API's environment variables (README "Configuration", docs/api.md "The message API"). */
export const messageApiConfig = {
  /** Sends one token (a connection's or an API key) may make per window (`RateLimit-*` headers). */
  MESSAGE_API_RATE_LIMIT: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 600 }),
  /** The rate limit's window, in seconds. */
  MESSAGE_API_RATE_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 60 }),
};

export type MessageApiConfig = FeatureConfig<typeof messageApiConfig>;

/** The message API's context, its configuration typed. */
export type MessageApiContext = PluginContext<MessageApiConfig>;
