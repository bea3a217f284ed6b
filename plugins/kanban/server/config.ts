import { type FeatureConfig, type PluginContext, Type } from '@balcao/plugin-sdk/server';

/** The kanban's environment variables (README "Configuration"). */
export const kanbanConfig = {
  /** The demo page's port: the demo embed key allows its origins. */
  KANBAN_DEMO_PORT: Type.Integer({ minimum: 1, maximum: 65_535, default: 8090 }),
};

export type KanbanConfig = FeatureConfig<typeof kanbanConfig>;

/** The kanban's context, its configuration typed. */
export type KanbanContext = PluginContext<KanbanConfig>;
