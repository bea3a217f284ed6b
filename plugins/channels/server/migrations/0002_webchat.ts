import type { Knex } from 'knex';

/**
 * The webchat channel (docs/channels/webchat.md): its visitors and their sessions.
 * A visitor belongs to one connection; deleting the connection removes its visitors and sessions (the
 * tickets and contacts stay in the inbox's history, as for every channel).
 */
export async function up(knex: Knex): Promise<void> {
  // every widget request finds its connection by the public widget key: unique across all companies
  await knex.raw(`CREATE UNIQUE INDEX whatsapps_webchat_widget_key ON whatsapps ((channel_config->>'widgetKey'))
    WHERE channel = 'webchat'`);

  await knex.schema.createTable('webchatVisitors', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    // the public, random id of an anonymous visitor (the contact identifier `webchat:<publicId>`)
    t.string('publicId', 40).notNullable().unique();
    // the site's user id (`sub` of the identity token) of an identified visitor
    t.string('externalId', 200);
    t.string('name', 120);
    t.string('email', 255);
    t.string('phone', 40);
    t.string('locale', 10);
    // the inbox contact of the visitor, known once they wrote (their conversation is its tickets here)
    t.integer('contactId').references('contacts.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['companyId', 'whatsappId']);
    t.index(['contactId']);
  });
  // one visitor per site user and connection: every device of that user is the same visitor
  await knex.raw(`CREATE UNIQUE INDEX webchat_visitors_external ON webchat_visitors (company_id, whatsapp_id, external_id)
    WHERE external_id IS NOT NULL`);

  await knex.schema.createTable('webchatSessions', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.integer('visitorId').notNullable().references('webchatVisitors.id').onDelete('CASCADE');
    // sha256 of the token: a leaked table gives no usable token
    t.string('tokenHash', 64).notNullable().unique();
    t.string('ip', 64);
    t.timestamp('expiresAt', { useTz: true }).notNullable();
    t.timestamp('lastUsedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revokedAt', { useTz: true });
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'whatsappId']);
    t.index(['visitorId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webchatSessions');
  await knex.schema.dropTableIfExists('webchatVisitors');
  await knex.raw('DROP INDEX IF EXISTS whatsapps_webchat_widget_key');
}
