import type { Knex } from 'knex';

/**
 * Outbound webhooks (docs/api.md "Webhooks"): the endpoints a company registers, and the outbox of
 * deliveries — one row per event per subscribed endpoint, written by the event's handler and claimed by the
 * dispatcher of any worker process with a lease, so a process killed mid-delivery leaves a row another one
 * delivers again (at least once).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhookEndpoints', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 120).notNullable();
    t.string('url', 2000).notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    // AES-256-GCM under WEBHOOKS_SECRETS_KEY; never answered
    t.text('secretSealed').notNullable();
    // the first failure since the last success: 24 h of it disables the endpoint
    t.timestamp('failingSince', { useTz: true });
    t.timestamp('disabledAt', { useTz: true });
    t.timestamps(true, true);
    t.index(['companyId']);
  });
  await knex.schema.createTable('webhookDeliveries', (t) => {
    t.bigIncrements('id');
    // what receivers dedupe by (Balcao-Delivery, the body's id)
    t.uuid('uuid').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('endpointId').notNullable().references('webhookEndpoints.id').onDelete('CASCADE');
    t.string('event', 40).notNullable();
    t.jsonb('data').notNullable();
    // when the event happened (the body's createdAt); retries stop 24 h after it
    t.timestamp('occurredAt', { useTz: true }).notNullable();
    // pending (to send or retry), delivered, failed (gave up)
    t.string('status', 10).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('nextAttemptAt', { useTz: true });
    t.timestamp('lastAttemptAt', { useTz: true });
    t.integer('responseStatus');
    t.integer('durationMs');
    t.string('error', 60);
    t.timestamp('leaseUntil', { useTz: true });
    t.uuid('leaseToken');
    t.bigInteger('redeliveryOf');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['endpointId', 'id']);
  });
  // the dispatcher's worklist: pending rows of every company, in order
  await knex.raw("CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhookDeliveries');
  await knex.schema.dropTableIfExists('webhookEndpoints');
}
