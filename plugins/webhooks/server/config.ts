import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The webhooks' environment variables (README "Configuration", docs/api.md "Webhooks"). */
export const webhooksConfig = {
  /**
   * Seals the endpoints' signing secrets at rest: 64 hex characters (32 bytes). Required in production;
   * elsewhere a fixed development key stands in.
   */
  WEBHOOKS_SECRETS_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  /** Whether this process's dispatcher delivers (worker processes only; tests switch it off to drive it). */
  WEBHOOKS_DISPATCHER: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  /** Loops claiming deliveries in each worker process. */
  WEBHOOKS_LANES: Type.Integer({ minimum: 1, maximum: 64, default: 4 }),
  /** Deliveries one loop claims at a time (sent concurrently). */
  WEBHOOKS_BATCH: Type.Integer({ minimum: 1, maximum: 500, default: 25 }),
  /** Deliveries to one endpoint a process sends at once (a slow receiver holds no more of the slots). */
  WEBHOOKS_ENDPOINT_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 500, default: 10 }),
  /** How long a claim holds before another process may take the delivery over (renewed while it runs). */
  WEBHOOKS_LEASE_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000 }),
  /**
   * Endpoints one company may register: each event writes a row per subscribed endpoint inside the inbox's
   * shared statement batch, so the fan-out per event stays bounded.
   */
  WEBHOOKS_MAX_PER_COMPANY: Type.Integer({ minimum: 1, maximum: 1_000, default: 20 }),
  /** Days a delivered or failed delivery (with its event's data) is kept in the log before it is deleted. */
  WEBHOOKS_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3_650, default: 30 }),
  /** Deadline of one delivery request, in milliseconds. */
  WEBHOOKS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
};

export type WebhooksConfig = FeatureConfig<typeof webhooksConfig>;

/** The webhooks' context, its configuration typed. */
export type WebhooksContext = PluginContext<WebhooksConfig>;
