import type { Knex } from 'knex';

/**
 * Queue integrations, the flows they and phrase campaigns point at, phrase campaigns, and each ticket's
 * conversation with an integration (docs/product/automation.md "Queue integrations", "Phrase campaigns").
 * The table names are the ones the connections' references already look for (`queueIntegrations`,
 * `flowBuilders`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('queueIntegrations', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('type', 20).notNullable();
    t.string('name', 100).notNullable();
    t.string('projectName', 100).notNullable().defaultTo('');
    // a Dialogflow service account (its private key): sealed with the feature's key, never answered
    t.text('jsonContentSealed');
    t.string('language', 10).notNullable().defaultTo('');
    t.text('urlN8N').notNullable().defaultTo('');
    t.integer('typebotDelayMessage').notNullable().defaultTo(1000);
    t.integer('typebotExpires').notNullable().defaultTo(1);
    t.string('typebotKeywordFinish', 100).notNullable().defaultTo('');
    t.string('typebotKeywordRestart', 100).notNullable().defaultTo('');
    t.text('typebotRestartMessage').notNullable().defaultTo('');
    t.string('typebotSlug', 200).notNullable().defaultTo('');
    t.text('typebotUnknownMessage').notNullable().defaultTo('');
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });
  await knex.raw(`ALTER TABLE queue_integrations ADD CONSTRAINT queue_integrations_type
    CHECK (type IN ('dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'))`);

  // the flows themselves (their editor and runtime are the flow builder's next part): what phrase
  // campaigns and connections name
  await knex.schema.createTable('flowBuilders', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.jsonb('flow');
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });

  await knex.schema.createTable('flowCampaigns', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.integer('flowId').notNullable().references('flowBuilders.id').onDelete('CASCADE');
    t.integer('whatsappId').references('whatsapps.id').onDelete('SET NULL');
    t.text('phrase').notNullable();
    t.boolean('status').notNullable().defaultTo(true);
    t.timestamps(true, true);
    t.index(['companyId', 'whatsappId']);
  });

  // a ticket's conversation with its integration: the bot's session (Typebot's), when it last spoke, and
  // the last failure (a slow, broken or oversized answer hands the ticket back to its queue)
  await knex.schema.createTable('integrationSessions', (t) => {
    t.integer('ticketId').primary().references('tickets.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('integrationId').notNullable().references('queueIntegrations.id').onDelete('CASCADE');
    t.string('sessionId', 200);
    // the last customer message answered: a message handed over twice (its arrival and the hand-off) is answered once
    t.bigInteger('lastMessageId');
    t.timestamp('lastActivityAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('lastError', 40);
    t.timestamp('lastErrorAt', { useTz: true });
    t.index(['companyId', 'integrationId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('integrationSessions');
  await knex.schema.dropTable('flowCampaigns');
  await knex.schema.dropTable('flowBuilders');
  await knex.schema.dropTable('queueIntegrations');
}
