import type { Knex } from 'knex';

/**
 * The Meta channels' own rows (docs/meta.md):
 * - `metaAccounts`: which connection a Graph object is — a WhatsApp Cloud phone number id, a Facebook page
 *   id, an Instagram account id. Webhooks name these ids; the unique (channel, externalId) is the rule that
 *   one number, page or account is connected once on the whole platform.
 * - `metaWindows`: when each contact last wrote on a connection: the 24-hour customer-service window
 *   that free-form replies need.
 * - `metaTemplateSends`: a WhatsApp template an agent chose for a message of a ticket (its name, language
 *   and variables), read by the driver when the inbox delivers that message, retries included.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('metaAccounts', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.string('channel', 20).notNullable();
    t.string('externalId', 64).notNullable();
    // the token the channel calls the Graph with (a system-user or page token), sealed (secrets.ts)
    t.text('tokenSealed').notNullable();
    // what else the channel needs: the business account of a number, the page of an Instagram account
    t.jsonb('details').notNullable().defaultTo('{}');
    // false while the connection is stopped: its webhooks are acknowledged and dropped
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['channel', 'externalId']);
    t.unique(['whatsappId']);
    t.index(['companyId']);
  });

  await knex.schema.createTable('metaWindows', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.string('identifier', 128).notNullable();
    t.timestamp('lastInboundAt', { useTz: true }).notNullable();
    t.primary(['whatsappId', 'identifier']);
    t.index(['companyId']);
  });

  await knex.schema.createTable('metaTemplateSends', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable();
    // sha256 of the rendered text: the stored message it became is found by ticket and text
    t.string('bodyHash', 64).notNullable();
    t.jsonb('template').notNullable();
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'ticketId', 'bodyHash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('metaTemplateSends');
  await knex.schema.dropTable('metaWindows');
  await knex.schema.dropTable('metaAccounts');
}
