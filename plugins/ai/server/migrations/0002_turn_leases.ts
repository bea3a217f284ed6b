import type { Knex } from 'knex';

/**
 * One assistant turn at a time per ticket, without holding a database connection while the provider
 * thinks: a turn takes the ticket's lease row (its holder and until when), works with no transaction open,
 * and deletes the row when done. A worker that dies leaves a lease that simply runs out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('aiTurnLeases', (t) => {
    t.integer('ticketId').primary().references('tickets.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.uuid('holder').notNullable();
    t.timestamp('expiresAt', { useTz: true }).notNullable();
    t.index(['companyId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('aiTurnLeases');
}
