import type { Knex } from 'knex';

/**
 * The flow a `flowbuilder` queue integration starts (docs/product/automation.md "Queue integrations at
 * work"): a ticket handed to the integration walks that flow. Deleting the flow leaves the integration
 * without one (a ticket handed to it then goes back to people).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('queueIntegrations', (t) => {
    t.integer('flowId').references('flowBuilders.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('queueIntegrations', (t) => {
    t.dropColumn('flowId');
  });
}
