import { type FeatureConfig, Type } from '@balcao/plugin-sdk/server';

/** The website chat's environment variables (README "Configuration"). */
export const webchatConfig = {
  /** The webchat demo page's port: Site Acme allows its origins. */
  WEBCHAT_DEMO_PORT: Type.Integer({ minimum: 1, maximum: 65_535, default: 8091 }),
};

export type WebchatConfig = FeatureConfig<typeof webchatConfig>;
