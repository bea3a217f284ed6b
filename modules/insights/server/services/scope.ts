import type { FastifyRequest, PluginContext, SessionUser } from '@balcao/plugin-sdk/server';

/**
 * Whose tickets a viewer's figures and report cover (docs/insights.md "Who sees what"): admins (and the
 * super user) the whole company; a profile user let in by showDashboard only the tickets of their own
 * queues — the dashboard is the company's, an agent's window onto it is their queues.
 */
export interface ViewerScope {
  companyId: number;
  userId: number;
  /** null: every queue (and tickets without one); else only these queues. */
  queueIds: number[] | null;
}

export function scopeOf(user: SessionUser): ViewerScope {
  const whole = user.profile === 'admin' || user.super === true;
  return { companyId: user.companyId, userId: user.id, queueIds: whole ? null : user.queues.map((queue) => queue.id) };
}

export async function requestScope(ctx: PluginContext, request: FastifyRequest): Promise<ViewerScope> {
  return scopeOf(await ctx.access.sessionUser(request));
}
