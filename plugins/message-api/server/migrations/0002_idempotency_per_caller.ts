import type { Knex } from 'knex';

/**
 * Idempotency records belong to the caller that made them (docs/api.md "The message API"): two tokens or
 * API keys of one company may use the same `Idempotency-Key` without one answering the other's request.
 * `caller` is the caller's identity (`connection:<id>` or `key:<id>`); the records written before it have
 * none and still answer any caller of their company until the retention purges them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messageApiRequests', (t) => {
    t.string('caller', 64);
    t.dropUnique(['companyId', 'idempotencyKey']);
    t.unique(['companyId', 'caller', 'idempotencyKey']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('messageApiRequests').whereNotNull('caller').delete();
  await knex.schema.alterTable('messageApiRequests', (t) => {
    t.dropUnique(['companyId', 'caller', 'idempotencyKey']);
    t.dropColumn('caller');
    t.unique(['companyId', 'idempotencyKey']);
  });
}
