import { AppError, type PluginContext, type RequestSession } from '@balcao/plugin-sdk/server';
import { billingState } from './state';

/** Refuses every billing call while no gateway is configured (BILLING_GATEWAY=off). */
export function requireBilling(ctx: PluginContext): void {
  if (billingState(ctx).name === 'off') throw new AppError('ERR_BILLING_DISABLED');
}

/** The caller's session on a route whose access rule guarantees one. */
export const sessionOf = (request: { session: RequestSession | null }) => request.session as RequestSession;
