import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { QueueRef } from '../../shared/types';

/** The queues a user belongs to, as the session user carries them (docs/product/tickets-and-inbox.md#entities `queues`). */
export async function sessionQueues(ctx: PluginContext, userId: number): Promise<QueueRef[]> {
  return ctx.db
    .knex('userQueues as uq')
    .join('queues as q', 'q.id', 'uq.queueId')
    .where('uq.userId', userId)
    .orderBy('q.name')
    .select('q.id', 'q.name', 'q.color');
}
