import { type FeatureConfig, Type } from '@balcao/plugin-sdk/server';

/** The queues' environment variables (README "Configuration"). */
export const queuesConfig = {
  /** How long one minute of a queue's rotation (tempoRoteador) lasts: tests of the timing shorten it. */
  ADMIN_ROTATION_MINUTE_MS: Type.Integer({ minimum: 1, maximum: 60_000, default: 60_000 }),
};

export type QueuesConfig = FeatureConfig<typeof queuesConfig>;
