import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The AI plugin's environment variables (README "Configuration", docs/ai.md). */
export const aiConfig = {
  /**
   * Seals the prompts' API keys at rest: 64 hex characters (32 bytes). Required in production; elsewhere a
   * fixed development key stands in, so tests and the demo need none.
   */
  AI_SECRETS_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  /** Deadline of one call to a provider, in milliseconds. */
  AI_HTTP_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 30_000 }),
  /** Largest answer read from a provider, in bytes (an audio answer of the speech endpoint included). */
  AI_HTTP_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 20 * 1024 * 1024, default: 1024 * 1024 }),
  /** Longest `retry-after` of a provider's 429 that the assistant waits for (seconds); longer: people take over. */
  AI_MAX_RETRY_AFTER_SECONDS: Type.Integer({ minimum: 0, maximum: 600, default: 30 }),
  /** The speech service's synthesis address; `{region}` is the prompt's voice region (Azure speech). */
  AI_SPEECH_URL: Type.String({
    pattern: '^https?://',
    default: 'https://{region}.tts.speech.microsoft.com/cognitiveservices/v1',
  }),
  /**
   * Outside production, the port of the local OpenAI-compatible stand-in the demo's prompt talks to (the
   * plugin starts it on loopback). 0: not started, and the demo prompt is shown disabled.
   */
  AI_DEMO_STANDIN_PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 0 }),
};

export type AiConfig = FeatureConfig<typeof aiConfig>;

/** The AI plugin's context, its configuration typed. */
export type AiContext = PluginContext<AiConfig>;
