import { companyEvent, ROOMS } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';

/**
 * Emits on the company's `prompt` channel (`company-{id}-prompt`: `create` and `update` carry the prompt,
 * `delete` its id) to the company's admins only: users of profile user have no access to prompts.
 */
export async function emitPrompt(ctx: AiContext, companyId: number, payload: unknown): Promise<void> {
  const ids: number[] = await ctx.db
    .knex('users')
    .where({ companyId })
    .where((query) => query.where('profile', 'admin').orWhere('super', true))
    .pluck('id');
  if (ids.length === 0) return;
  ctx.realtime.emit(companyId, companyEvent(companyId, 'prompt'), payload, { rooms: ids.map((id) => ROOMS.user(id)) });
}
