import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { Queue, QueueRef, UserListItem } from '../../shared/types';

/** The company's queues (id, name, colour) by their order, then name (docs/product/tickets-and-inbox.md#calls-and-realtime-events: GET /queue). */
export async function listQueues(ctx: PluginContext, companyId: number): Promise<Queue[]> {
  return ctx.db
    .knex('queues')
    .where({ companyId })
    .orderByRaw('order_queue ASC NULLS LAST, name ASC, id ASC')
    .select('id', 'name', 'color', 'orderQueue', 'greetingMessage');
}

/**
 * The company's users with their queues (GET /users/list: transfer and filter pickers). The inbox serves
 * this list because its pickers need it; the rest of `/users` is the administration module's.
 */
export async function listUsers(ctx: PluginContext, companyId: number): Promise<UserListItem[]> {
  const { knex } = ctx.db;
  const rows = (await knex('users as u')
    .where('u.companyId', companyId)
    .orderBy([{ column: 'u.name' }, { column: 'u.id' }])
    .select(
      'u.id',
      'u.name',
      'u.email',
      'u.profile',
      'u.online',
      knex.raw(`coalesce((SELECT json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) ORDER BY q.name, q.id)
        FROM user_queues uq JOIN queues q ON q.id = uq.queue_id
        WHERE uq.company_id = u.company_id AND uq.user_id = u.id), '[]'::json) as queues_json`),
    )) as Array<Omit<UserListItem, 'queues'> & { queuesJson: QueueRef[] }>;
  return rows.map(({ queuesJson, ...user }) => ({ ...user, queues: queuesJson }));
}
