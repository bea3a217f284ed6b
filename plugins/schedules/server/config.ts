import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The schedules' environment variables (README "Configuration", docs/schedules.md "Configuration"). */
export const schedulesConfig = {
  /** Dispatch loops per worker process. */
  SCHEDULE_LANES: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  /** Due schedules one claim takes. */
  SCHEDULE_BATCH: Type.Integer({ minimum: 1, maximum: 10_000, default: 500 }),
  /** How long a claim holds its rows without a renewal: a dead process's rows come back after it. */
  SCHEDULE_LEASE_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000 }),
  /** `off`: this process doesn't send schedules (it still serves their routes). */
  SCHEDULE_DISPATCHER: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
};

export type SchedulesConfig = FeatureConfig<typeof schedulesConfig>;

/** The schedules' context, its configuration typed. */
export type SchedulesContext = PluginContext<SchedulesConfig>;
