import { AppError, type PlanService, type PluginPlanFlag } from '@balcao/plugin-sdk/server';
import type { SessionStore } from './session-store';

/** Plan flags resolved in one place: the session store's cached company state. */
export function createPlanService(sessions: SessionStore, pluginFlags: PluginPlanFlag[] = []): PlanService {
  const flags = async (companyId: number) => {
    const company = await sessions.company(companyId);
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
    return company.flags;
  };
  return {
    flags,
    async has(companyId, flag) {
      const company = await sessions.company(companyId);
      return company?.flags[flag] === true;
    },
    async require(companyId, flag) {
      if (!(await flags(companyId))[flag]) throw new AppError('ERR_PLAN_FEATURE_DISABLED');
    },
    pluginFlags: () => pluginFlags,
  };
}
