import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The campaigns' environment variables (README "Configuration", docs/campaigns.md "Configuration"). */
export const campaignsConfig = {
  /** Dispatch loops per worker process. */
  CAMPAIGN_LANES: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  /** Rows one claim takes when its connection isn't paced. */
  CAMPAIGN_BATCH: Type.Integer({ minimum: 1, maximum: 10_000, default: 200 }),
  /** How long a claim holds its rows without a renewal: a dead process's rows come back after it. */
  CAMPAIGN_LEASE_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000 }),
  /** `off`: this process doesn't dispatch (it still schedules and serves). */
  CAMPAIGN_DISPATCHER: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
};

export type CampaignsConfig = FeatureConfig<typeof campaignsConfig>;

/** The campaigns' context, its configuration typed. */
export type CampaignsContext = PluginContext<CampaignsConfig>;
