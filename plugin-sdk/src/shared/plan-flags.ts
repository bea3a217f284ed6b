/**
 * The ten feature flags a subscription plan carries (docs/product/README.md#what-the-product-is). A plugin names one of these as its
 * `planFlag`; the core refuses its routes, jobs and UI remote to companies whose plan lacks it.
 */
export const PLAN_FLAGS = [
  'useWhatsapp',
  'useFacebook',
  'useInstagram',
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;

/** One of the ten plan flags. */
export type PlanFlag = (typeof PLAN_FLAGS)[number];

/** Any plan flag: one of the ten, or one a plugin declares in its manifest. */
export type AnyPlanFlag = PlanFlag | (string & {});

/**
 * What a plugin's own flag is named like (`useHello`); the ten match it too. A plugin declares its own flag
 * with `planFlag` and its labels with `planFlagLabel` in its manifest.
 */
export const PLAN_FLAG_PATTERN = '^use[A-Z][A-Za-z0-9]{1,39}$';

/** A flag a loaded plugin declares for itself, with the label the Plans page shows. */
export interface PluginPlanFlag {
  key: string;
  /** The id of the plugin that declares it. */
  plugin: string;
  label: { pt: string; en: string; es: string; tr: string };
}

/**
 * A company's flags as the core resolves them: the ten, and every loaded plugin's own flag (off unless its
 * plan turns it on).
 */
export type PlanFlags = Record<PlanFlag, boolean> & { [pluginFlag: string]: boolean };

/**
 * A plan's `pluginFlags` as the API answers it: every declared flag, on or off. Keys stored for plugins that
 * are no longer loaded stay in the row but are not shown.
 */
export function pluginFlagsOf(stored: unknown, declared: readonly PluginPlanFlag[]): Record<string, boolean> {
  const own = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  return Object.fromEntries(declared.map((flag) => [flag.key, own[flag.key] === true]));
}

/** True when `value` names one of the ten plan flags. */
export function isPlanFlag(value: string): value is PlanFlag {
  return (PLAN_FLAGS as readonly string[]).includes(value);
}
