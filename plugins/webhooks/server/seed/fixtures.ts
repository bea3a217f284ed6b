import type { PluginDefinition } from '@balcao/plugin-sdk/server';
import type { WebhooksContext } from '../config';
import { seal, secretsKey } from '../services/secrets';

/**
 * The walkers' rows of company A: an endpoint named with the marker (inactive: nothing is sent during the
 * walk) and a delivered delivery carrying the marker in its data.
 */
export const seedWebhooksFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  ctx,
  companyA,
  marker,
}) => {
  const { knex } = ctx.db;
  const [endpoint] = (await knex('webhookEndpoints')
    .insert({
      companyId: companyA.id,
      name: `Endpoint ${marker}`,
      url: 'https://receiver.example.invalid/hook',
      events: ['ticket.created'],
      active: false,
      secretSealed: seal(secretsKey(ctx as WebhooksContext), 'whsec_fixture'),
    })
    .returning('id')) as Array<{ id: number }>;
  if (!endpoint) throw new Error('webhook fixture not inserted');
  const now = new Date();
  const [delivery] = (await knex('webhookDeliveries')
    .insert({
      companyId: companyA.id,
      endpointId: endpoint.id,
      event: 'ticket.created',
      data: JSON.stringify({ ticketId: 1, note: marker }),
      occurredAt: now,
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
      lastAttemptAt: now,
    })
    .returning('id')) as Array<{ id: number | string }>;
  return { webhook: endpoint.id, webhookDelivery: Number(delivery?.id) };
};
