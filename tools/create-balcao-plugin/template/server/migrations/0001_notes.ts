import type { Knex } from 'knex';

/** The notes table: a tenant table (company_id first in its index, deleted with its company). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('__CAMEL__Notes', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('text', 200).notNullable();
    t.boolean('reviewed').notNullable().defaultTo(false);
    t.timestamps(true, true);
    t.index(['companyId', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('__CAMEL__Notes');
}
