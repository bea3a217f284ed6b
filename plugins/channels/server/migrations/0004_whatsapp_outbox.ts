import type { Knex } from 'knex';

/**
 * The WhatsApp channel's own rows (docs/channels/whatsapp.md):
 * - `whatsappOutbox`: every outbound operation of a connection (send, edit, delete, reaction, read mark) in
 *   the order it was asked for. The process that owns the connection's session drains it in that order at
 *   a limited rate; a row stays until WhatsApp took it, so a crash never loses one, and a send carries a
 *   message id fixed before the first try, so a repeat after a crash is the same message (never a double).
 *   A sent row keeps the message as sent, so WhatsApp's retry requests decrypt (Baileys' `getMessage`).
 * - `whatsappImports` / `whatsappImportedTickets`: a connection's message import (docs/product/administration.md#entities, #states-and-transitions):
 *   its progress, and the tickets it opened (`POST /closedimported/:id` closes them).
 * - `whatsappSessionMarks`: until when a session surely heard everything (history after a downtime).
 * - On connections: why a session stopped (`sessionError`) and the code of a pairing by phone number.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('whatsapps', (t) => {
    // why the session stopped by itself: ERR_WAPP_LOGGED_OUT, ERR_WAPP_BANNED, ERR_WAPP_QR_EXPIRED … (null: it didn't)
    t.string('sessionError', 60);
    // the 8-character code to type on the phone while pairing by number (status PAIRING)
    t.string('pairingCode', 20);
  });

  await knex.schema.createTable('whatsappOutbox', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    // send, edit, delete, react, read
    t.string('op', 10).notNullable();
    // the WhatsApp message id the operation is about (a send's own id, fixed before the first try)
    t.string('channelMessageId', 128);
    // the inbox message a send delivers (its failure is reported on it)
    t.bigInteger('messageId');
    t.string('jid', 128).notNullable();
    // what to do: the text, the file's storage key, the quoted message, the reaction …
    t.jsonb('payload').notNullable().defaultTo('{}');
    // queued → sent | failed
    t.string('state', 10).notNullable().defaultTo('queued');
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('lastError', 200);
    t.timestamp('availableAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // the proto.Message as sent (for WhatsApp's retry requests)
    t.binary('content');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sentAt', { useTz: true });
  });
  // the drain's read: the next queued operations of a connection, in order
  await knex.raw("CREATE INDEX whatsapp_outbox_queued ON whatsapp_outbox (whatsapp_id, id) WHERE state = 'queued'");
  // one send per WhatsApp id: a repeated `send` (the inbox's job run twice, a retry) finds its row again
  await knex.raw(
    "CREATE UNIQUE INDEX whatsapp_outbox_send ON whatsapp_outbox (whatsapp_id, channel_message_id) WHERE op = 'send'",
  );
  // sent rows are kept a while for retry requests, then swept by age
  await knex.raw("CREATE INDEX whatsapp_outbox_sent ON whatsapp_outbox (sent_at) WHERE state <> 'queued'");

  // until when a connection's session surely heard everything: history that WhatsApp sends after a downtime
  // is received as new from this time on (older history is only the import's)
  await knex.schema.createTable('whatsappSessionMarks', (t) => {
    t.integer('whatsappId').primary().references('whatsapps.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.timestamp('heardUntil', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('whatsappImports', (t) => {
    t.integer('whatsappId').primary().references('whatsapps.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    // running, done
    t.string('state', 10).notNullable();
    t.integer('total').notNullable().defaultTo(0);
    t.integer('done').notNullable().defaultTo(0);
    t.timestamp('startedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finishedAt', { useTz: true });
  });
  await knex.schema.createTable('whatsappImportedTickets', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.primary(['whatsappId', 'ticketId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('whatsappImportedTickets');
  await knex.schema.dropTableIfExists('whatsappImports');
  await knex.schema.dropTableIfExists('whatsappSessionMarks');
  await knex.schema.dropTableIfExists('whatsappOutbox');
  await knex.schema.alterTable('whatsapps', (t) => {
    t.dropColumn('pairingCode');
    t.dropColumn('sessionError');
  });
}
