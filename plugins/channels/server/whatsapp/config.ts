import { type FeatureConfig, Type } from '@balcao/plugin-sdk/server';

/** The WhatsApp sessions' environment variables (README "Configuration", docs/channels/whatsapp.md). */
export const whatsappConfig = {
  /** Where sessions connect (a loopback peer in benchmarks); unset, WhatsApp's own. */
  WHATSAPP_WS_URL: Type.Optional(Type.String({ pattern: '^wss?://' })),
  /** The WhatsApp Web version to announce (`2,3000,1043857760`); unset, it is fetched. */
  WHATSAPP_VERSION: Type.Optional(Type.String({ pattern: '^\\d+[.,]\\d+[.,]\\d+$' })),
  /** Outbound messages per second per connection (WhatsApp bans numbers that blast). */
  WHATSAPP_SENDS_PER_SECOND: Type.Number({ exclusiveMinimum: 0, maximum: 1_000, default: 10 }),
  /** A session lease's life without renewal: a dead process's sessions move after it. */
  WHATSAPP_LEASE_TTL_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000 }),
  /** How often a process looks for sessions nobody runs. */
  WHATSAPP_CLAIM_INTERVAL_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 10_000 }),
};

export type WhatsAppConfig = FeatureConfig<typeof whatsappConfig>;
