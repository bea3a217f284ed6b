import type { Knex } from 'knex';

/**
 * WhatsApp sessions (Baileys): which process runs each connection, and the session's secrets.
 *
 * - `whatsappSessionLeases`: one row per connection that ever ran; (ownerId, epoch) names the process allowed
 *   to run it until `expiresAt` (database clock). The row is kept when a lease is released so that epochs
 *   only ever increase (a stale holder's (ownerId, epoch) never matches again).
 * - `whatsappAuthCreds`: Baileys' `AuthenticationCreds`, BufferJSON-encoded.
 * - `whatsappAuthKeys`: Baileys' signal key store, one row per (type, id), BufferJSON-encoded jsonb.
 *
 * All three follow the connection: deleting it deletes its lease and secrets.
 * See plugins/channels/server/whatsapp/session-store/README.md.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsappSessionLeases', (t) => {
    t.integer('whatsappId').primary().references('whatsapps.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    // the process holding (or last holding) the lease: unique per process lifetime
    t.text('ownerId').notNullable();
    // +1 on every acquisition: a lease is (ownerId, epoch)
    t.bigInteger('epoch').notNullable();
    t.timestamp('expiresAt', { useTz: true }).notNullable();
    t.timestamp('updatedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // the companies → rows cascade looks rows up by company
    t.index(['companyId']);
  });

  await knex.schema.createTable('whatsappAuthCreds', (t) => {
    t.integer('whatsappId').primary().references('whatsapps.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.jsonb('creds').notNullable();
    t.timestamp('updatedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId']);
  });

  await knex.schema.createTable('whatsappAuthKeys', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    // pre-key, session, sender-key, sender-key-memory, app-state-sync-key, app-state-sync-version, lid-mapping,
    // device-list, tctoken, identity-key
    t.text('type').notNullable();
    t.text('keyId').notNullable();
    t.jsonb('value').notNullable();
    // the primary key also serves the connection → keys cascade and whole-connection deletes (its prefix)
    t.primary(['whatsappId', 'type', 'keyId']);
    t.index(['companyId']);
  });
  // Sessions rewrite their row on every message: leave room in each page so that those updates stay HOT
  // (no indexed column changes) instead of moving the row and adding index entries.
  await knex.raw('ALTER TABLE whatsapp_auth_keys SET (fillfactor = 80)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('whatsappAuthKeys');
  await knex.schema.dropTableIfExists('whatsappAuthCreds');
  await knex.schema.dropTableIfExists('whatsappSessionLeases');
}
