import { companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';

/** How long a process reuses a company's list of campaign managers (the audience of every event). */
const AUDIENCE_TTL_MS = 5_000;

const audiences = new WeakMap<PluginContext, Map<number, { at: number; ids: Promise<number[]> }>>();

/**
 * The users who may see campaigns and lists: admins and super users (profile users have no access,
 * docs/product/roles-and-permissions.md#roles-in-automation), cached for a few seconds.
 */
function managers(ctx: PluginContext, companyId: number): Promise<number[]> {
  let cache = audiences.get(ctx);
  if (!cache) {
    cache = new Map();
    audiences.set(ctx, cache);
  }
  const hit = cache.get(companyId);
  if (hit && Date.now() - hit.at < AUDIENCE_TTL_MS) return hit.ids;
  const ids = ctx.db
    .knex('users')
    .where({ companyId })
    .where((query) => query.where('profile', 'admin').orWhere('super', true))
    .pluck('id') as Promise<number[]>;
  cache.set(companyId, { at: Date.now(), ids });
  ids.catch(() => cache?.delete(companyId));
  return ids;
}

/**
 * Emits one of the campaigns' channels (`campaign`, `ContactList`, `ContactListItem`: docs/product/automation.md#states-and-transitions) to
 * the company's campaign managers only.
 */
export async function emitToManagers(ctx: PluginContext, companyId: number, channel: string, payload: unknown): Promise<void> {
  const ids = await managers(ctx, companyId);
  if (ids.length === 0) return;
  ctx.realtime.emit(companyId, companyEvent(companyId, channel), payload, { rooms: ids.map((id) => ROOMS.user(id)) });
}
