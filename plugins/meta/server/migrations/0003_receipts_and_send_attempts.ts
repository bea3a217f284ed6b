import type { Knex } from 'knex';

/**
 * - `metaPendingReceipts`: a read or delivery receipt (or a `failed` status) that named a message the inbox
 *   has not yet recorded the Graph's id of: the send's answer and Meta's first status race within
 *   milliseconds. The `pending-receipts` job applies them once the id is recorded.
 * - `metaSendAttempts`: a WhatsApp Cloud send recorded before the Graph is called (the Graph has no
 *   idempotency key): a retried delivery after a crash finds it and reconciles instead of sending twice.
 *   `channelMessageId` is the Graph's id once known, from the send's answer or from a status webhook that
 *   carries our message id back (`biz_opaque_callback_data`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('metaPendingReceipts', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.string('channelMessageId', 255).notNullable();
    // an ack (1 sent, 2 delivered, 3 read), or null with the error code of a failed status
    t.smallint('ack').nullable();
    t.string('error', 60).nullable();
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'whatsappId', 'channelMessageId']);
  });

  await knex.schema.createTable('metaSendAttempts', (t) => {
    t.bigInteger('messageId').primary();
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.string('channelMessageId', 255).nullable();
    t.timestamp('startedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('metaSendAttempts');
  await knex.schema.dropTable('metaPendingReceipts');
}
