import { companyEvent, ROOMS } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';

/**
 * Emits one of the feature's company channels (`queueIntegration`, `flowCampaign`) to the company's admins
 * only: users of profile user have no access to these pages (docs/product/roles-and-permissions.md).
 */
export async function emitToAdmins(ctx: FlowbuilderContext, companyId: number, channel: string, payload: unknown): Promise<void> {
  const ids: number[] = await ctx.db
    .knex('users')
    .where({ companyId })
    .where((query) => query.where('profile', 'admin').orWhere('super', true))
    .pluck('id');
  if (ids.length === 0) return;
  ctx.realtime.emit(companyId, companyEvent(companyId, channel), payload, { rooms: ids.map((id) => ROOMS.user(id)) });
}
