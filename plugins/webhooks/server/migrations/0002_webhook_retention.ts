import type { Knex } from 'knex';

/**
 * The retention sweep's worklist: delivered and failed rows by age, so deleting the ones past
 * WEBHOOKS_RETENTION_DAYS reads only them, not the whole log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX webhook_deliveries_final ON webhook_deliveries (created_at, id) WHERE status IN ('delivered', 'failed')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS webhook_deliveries_final');
}
