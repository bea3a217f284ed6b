import type { FastifyRequest, PluginContext, SessionUser } from '@balcao/plugin-sdk/server';
import { masksNumbers } from '../tickets/serializer';
import { type Viewer, viewerOf } from '../tickets/visibility';

/** Who calls a directory route: the company, the session user, their viewer and whether numbers are masked. */
export interface Caller {
  companyId: number;
  user: SessionUser;
  viewer: Viewer;
  /** Profile user with LGPD hide-number on: every contact number they get is masked (groups excepted). */
  mask: boolean;
}

/** The caller of an authenticated request. */
export async function callerOf(ctx: PluginContext, request: FastifyRequest): Promise<Caller> {
  const user = await ctx.access.sessionUser(request);
  const settings = await ctx.settings.all(user.companyId);
  return { companyId: user.companyId, user, viewer: viewerOf(user), mask: masksNumbers(user.profile, settings) };
}
