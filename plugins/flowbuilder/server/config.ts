import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The flow builder's environment variables (README "Configuration"). */
export const flowbuilderConfig = {
  /**
   * Seals the integrations' secrets at rest (a Dialogflow service account): 64 hex characters (32 bytes).
   * Required in production; elsewhere a fixed development key stands in.
   */
  FLOWBUILDER_SECRETS_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  /** Dialogflow ES's API address (tests point it at a local stand-in). */
  FLOWBUILDER_DIALOGFLOW_URL: Type.String({ pattern: '^https?://', default: 'https://dialogflow.googleapis.com' }),
  /** Deadline of one call to an integration, in milliseconds. */
  FLOWBUILDER_HTTP_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  /** Largest answer read from an integration, in bytes. */
  FLOWBUILDER_HTTP_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 10 * 1024 * 1024, default: 1024 * 1024 }),
};

export type FlowbuilderConfig = FeatureConfig<typeof flowbuilderConfig>;

/** The flow builder's context, its configuration typed. */
export type FlowbuilderContext = PluginContext<FlowbuilderConfig>;
