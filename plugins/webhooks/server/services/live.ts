import { companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';

/** The webhooks' realtime channel: `company-{id}-webhook`. */
export const WEBHOOK_CHANNEL = 'webhook';

/** The company's admins (and super users): the only ones who see webhooks. */
function admins(ctx: PluginContext, companyId: number): Promise<number[]> {
  return ctx.db
    .knex('users')
    .where({ companyId })
    .where((query) => query.where('profile', 'admin').orWhere('super', true))
    .pluck('id') as Promise<number[]>;
}

/** Tells the company's admins' screens of an endpoint changed, or of one disabled for failing a day. */
export async function notifyAdmins(ctx: PluginContext, companyId: number, payload: unknown): Promise<void> {
  const ids = await admins(ctx, companyId);
  if (ids.length === 0) return;
  ctx.realtime.emit(companyId, companyEvent(companyId, WEBHOOK_CHANNEL), payload, { rooms: ids.map((id) => ROOMS.user(id)) });
}

/** Same as notifyAdmins without waiting (from a route, after the change is committed). */
export function emitWebhook(ctx: PluginContext, companyId: number, payload: unknown): void {
  void notifyAdmins(ctx, companyId, payload).catch((error: unknown) => ctx.log.warn({ err: error }, 'webhook event not emitted'));
}
