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

/** A plan's flags as the API returns them (`GET /companies/listPlan/:companyId`). */
export type PlanFlags = Record<PlanFlag, boolean>;

/** True when `value` names one of the ten plan flags. */
export function isPlanFlag(value: string): value is PlanFlag {
  return (PLAN_FLAGS as readonly string[]).includes(value);
}
