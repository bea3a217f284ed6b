import type { Knex } from 'knex';

/**
 * The flags plugins declare for themselves, per plan: `{ "useHello": true }`. One column for all of them, so
 * a new plugin's flag needs no migration; a flag a plan doesn't name is off. Keys are checked against the
 * loaded plugins' declarations when a plan is saved.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.jsonb('pluginFlags').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('pluginFlags');
  });
}
