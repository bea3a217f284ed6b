import type { Knex } from 'knex';

/**
 * The processes that run WhatsApp sessions (docs/channels/whatsapp.md "Sessions"): each writes its row at
 * every claim round — how many sessions it runs, when it was last seen — so that the processes share the
 * sessions fairly instead of the first one to claim taking them all. A row not seen for a few rounds is a
 * process that died; a process that stops deletes its own.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsappSessionHosts', (t) => {
    t.string('ownerId', 200).primary();
    t.integer('sessions').notNullable().defaultTo(0);
    t.timestamp('seenAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('whatsappSessionHosts');
}
