import type { Knex } from 'knex';

/**
 * A ticket's flow turns go one at a time under a short lease row, not a lock held on a pooled connection:
 * a turn waiting for its ticket holds no connection, and a process that dies leaves a lease that runs out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('flowTurnLeases', (t) => {
    t.integer('ticketId').primary().references('tickets.id').onDelete('CASCADE');
    t.string('token', 64).notNullable();
    t.timestamp('leaseUntil', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flowTurnLeases');
}
