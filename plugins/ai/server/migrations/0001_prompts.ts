import type { Knex } from 'knex';

/**
 * AI prompts (one assistant per queue), each ticket's state with its assistant, the tokens spent per prompt
 * per day, and the company's monthly token cap (docs/ai.md). The table name `prompts` is the one the
 * connections' `promptId` reference already looks for.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('prompts', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('prompt').notNullable();
    t.integer('queueId').notNullable().references('queues.id').onDelete('CASCADE');
    t.string('voice', 40).notNullable().defaultTo('texto');
    // the provider's and the voice service's keys: sealed with the feature's key, never answered
    t.text('apiKeySealed').notNullable();
    t.text('voiceKeySealed');
    t.string('voiceRegion', 40).notNullable().defaultTo('');
    t.integer('maxTokens').notNullable().defaultTo(100);
    t.float('temperature').notNullable().defaultTo(1);
    t.integer('maxMessages').notNullable().defaultTo(10);
    t.string('baseUrl', 500).notNullable().defaultTo('https://api.openai.com/v1');
    t.string('model', 100).notNullable().defaultTo('gpt-4o-mini');
    t.timestamps(true, true);
    t.unique(['companyId', 'queueId']);
  });
  await knex.schema.createTable('aiTicketStates', (t) => {
    t.integer('ticketId').primary().references('tickets.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('promptId');
    t.bigInteger('lastMessageId');
    t.timestamp('handedOverAt', { useTz: true });
    t.string('handoverReason', 60);
    t.timestamp('updatedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId']);
  });
  // kept when a prompt is deleted: what was spent this month still counts against the cap
  await knex.schema.createTable('aiUsage', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('promptId').notNullable();
    t.date('day').notNullable();
    t.bigInteger('tokensIn').notNullable().defaultTo(0);
    t.bigInteger('tokensOut').notNullable().defaultTo(0);
    t.integer('requests').notNullable().defaultTo(0);
    t.primary(['companyId', 'day', 'promptId']);
  });
  await knex.schema.createTable('aiCompanySettings', (t) => {
    t.integer('companyId').primary().references('companies.id').onDelete('CASCADE');
    t.bigInteger('monthlyTokenCap');
    t.timestamp('updatedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('aiCompanySettings');
  await knex.schema.dropTable('aiUsage');
  await knex.schema.dropTable('aiTicketStates');
  await knex.schema.dropTable('prompts');
}
