import type { Knex } from 'knex';

/**
 * The message API's idempotency records (docs/api.md "The message API"): one row per company and
 * `Idempotency-Key`, written in the same transaction as the messages it sent, holding the answer a retry
 * gets again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('messageApiRequests', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('idempotencyKey', 255).notNullable();
    t.string('requestHash', 64).notNullable();
    t.jsonb('response').notNullable();
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['companyId', 'idempotencyKey']);
    t.index(['createdAt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('messageApiRequests');
}
