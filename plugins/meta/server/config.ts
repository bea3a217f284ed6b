import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The Graph API version our calls name, pinned; META_GRAPH_VERSION moves it without a code change. */
export const DEFAULT_GRAPH_VERSION = 'v21.0';

/**
 * The Meta channels' settings (README "Configuration"). Without META_APP_SECRET the channels are not
 * registered: their connections answer ERR_CHANNEL_NOT_AVAILABLE, as before this plugin.
 */
export const metaConfig = {
  /** Where the Graph API is (the stand-in's address in tests and with `npm start -- --meta-stand-in`). */
  META_GRAPH_URL: Type.String({ pattern: '^https?://[^/]+$', default: 'https://graph.facebook.com' }),
  META_GRAPH_VERSION: Type.String({ pattern: '^v\\d+\\.\\d+$', default: DEFAULT_GRAPH_VERSION }),
  /** The Meta app (Facebook Login's token exchange, webhook signatures, the verify-token handshake). */
  META_APP_ID: Type.Optional(Type.String({ pattern: '^\\d{1,32}$' })),
  META_APP_SECRET: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  META_VERIFY_TOKEN: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
  /**
   * The Facebook JS SDK the Connections page loads for Facebook Login (the stand-in serves a small one of
   * its own at `<stand-in>/sdk.js`).
   */
  META_LOGIN_SDK_URL: Type.String({ pattern: '^https?://[^\\s]+$', default: 'https://connect.facebook.net/en_US/sdk.js' }),
  /** Key of the tokens at rest (64 hex characters); required in production. */
  META_SECRETS_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  /** First retry of a send the Graph refused for a passing reason; each next one waits twice as long. */
  META_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 15_000 }),
  /** Largest media file downloaded from the Graph into the company's storage. */
  META_MEDIA_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 104_857_600, default: 26_214_400 }),
};

export type MetaConfig = FeatureConfig<typeof metaConfig>;
export type MetaContext = PluginContext<MetaConfig>;

/** The app's credentials, or null when the Meta channels are not configured. */
export function metaApp(ctx: MetaContext): { id: string; secret: string; verifyToken: string } | null {
  const { META_APP_ID, META_APP_SECRET, META_VERIFY_TOKEN } = ctx.config;
  if (!META_APP_ID || !META_APP_SECRET || !META_VERIFY_TOKEN) return null;
  return { id: META_APP_ID, secret: META_APP_SECRET, verifyToken: META_VERIFY_TOKEN };
}

/**
 * All three app settings or none: a half-configured app would accept webhooks it can't verify. A configured
 * app in production needs its own META_SECRETS_KEY: the development key is public, and without this check
 * the channels' registration would throw at start instead of the start refusing the settings (exit 78). A
 * malformed key is refused by the schema itself.
 */
export function metaConfigProblems(config: MetaConfig, platform: { env: string } = { env: 'development' }): string[] {
  const set = [config.META_APP_ID, config.META_APP_SECRET, config.META_VERIFY_TOKEN].filter(Boolean).length;
  if (set !== 0 && set !== 3) return ['META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN go together'];
  if (set === 3 && platform.env === 'production' && !config.META_SECRETS_KEY)
    return [
      'META_SECRETS_KEY is required in production when the Meta app is configured (64 hex characters: openssl rand -hex 32)',
    ];
  return [];
}
