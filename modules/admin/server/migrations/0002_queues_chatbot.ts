import type { Knex } from 'knex';

/** The weekday service hours every new queue and company starts with (docs/product/administration.md#constants-and-limits); no quotes inside. */
const DEFAULT_SCHEDULES = JSON.stringify(
  [
    ['Domingo', 'sunday'],
    ['Segunda-feira', 'monday'],
    ['Terça-feira', 'tuesday'],
    ['Quarta-feira', 'wednesday'],
    ['Quinta-feira', 'thursday'],
    ['Sexta-feira', 'friday'],
    ['Sábado', 'saturday'],
  ].map(([weekday, weekdayEn]) => ({
    weekday,
    weekdayEn,
    startTimeA: '08:00',
    endTimeA: '12:00',
    startTimeB: '13:00',
    endTimeB: '18:00',
  })),
);

/**
 * Queues administration (docs/product/administration.md#entities Queue, Chatbot option) and service hours.
 *
 * The inbox owns the `queues` table (its basic part: name, colour, greeting, order, membership): the
 * administration extends it with the columns only the administration and its chatbot read, instead of
 * keeping a second copy of every queue (docs/architecture.md, "The inbox module"). Both modules map
 * `queues` with their own model.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('queues', (t) => {
    t.text('outOfHoursMessage');
    // rotation (docs/product/administration.md#constants-and-limits: 0, 2, 5 … 60 minutes): a waiting ticket moves on to the next agent
    t.integer('tempoRoteador').notNullable().defaultTo(0);
    t.boolean('ativarRoteador').notNullable().defaultTo(false);
    // queue integrations and file lists are other features' tables (not installed here): no foreign key
    t.integer('integrationId');
    t.integer('fileListId');
    t.boolean('closeTicket').notNullable().defaultTo(false);
    t.jsonb('schedules')
      .notNullable()
      .defaultTo(knex.raw(`'${DEFAULT_SCHEDULES}'::jsonb`));
  });

  // The chatbot option tree of a queue: root options have no parent (`chatbotId`), nested ones name theirs.
  await knex.schema.createTable('chatbots', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('queueId').notNullable().references('queues.id').onDelete('CASCADE');
    t.integer('chatbotId').references('chatbots.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('greetingMessage').notNullable().defaultTo('');
    t.string('queueType', 20).notNullable().defaultTo('text');
    t.integer('optQueueId').references('queues.id').onDelete('SET NULL');
    t.integer('optUserId').references('users.id').onDelete('SET NULL');
    t.integer('optIntegrationId');
    t.integer('optFileId');
    t.boolean('closeTicket').notNullable().defaultTo(false);
    t.integer('orderOption').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['companyId', 'queueId', 'chatbotId', 'orderOption']);
  });
  await knex.raw(`ALTER TABLE chatbots ADD CONSTRAINT chatbots_queue_type_check
    CHECK (queue_type IN ('text', 'attendent', 'queue', 'integration', 'file'))`);

  // Company service hours (scheduleType company) and the company-wide greeting and bot limits, the
  // defaults a conversation falls back on. The core's companies table is not this module's to extend.
  await knex.schema.createTable('companyServiceHours', (t) => {
    t.integer('companyId').primary().references('companies.id').onDelete('CASCADE');
    t.jsonb('schedules')
      .notNullable()
      .defaultTo(knex.raw(`'${DEFAULT_SCHEDULES}'::jsonb`));
    t.text('outOfHoursMessage').notNullable().defaultTo('');
    t.text('greetingMessage').notNullable().defaultTo('');
    t.integer('maxUseBotQueues').notNullable().defaultTo(3);
    t.integer('timeUseBotQueues').notNullable().defaultTo(0);
    t.timestamps(true, true);
  });

  // Where the chatbot is in each conversation it runs: one row per ticket.
  await knex.schema.createTable('chatbotTickets', (t) => {
    t.integer('ticketId').primary().references('tickets.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    // `queues`: waiting for a queue number; `options`: inside a queue's option tree; `done`: finished
    t.string('stage', 10).notNullable().defaultTo('queues');
    t.integer('queueId').references('queues.id').onDelete('SET NULL');
    // the option whose children are on offer (null: the queue's root options)
    t.integer('chatbotId').references('chatbots.id').onDelete('SET NULL');
    t.timestamp('startedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('outOfHoursSentAt', { useTz: true });
    // the last rotation step applied (a step's job acts only once)
    t.integer('rotationStep').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['companyId', 'ticketId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('chatbotTickets');
  await knex.schema.dropTableIfExists('companyServiceHours');
  await knex.schema.dropTableIfExists('chatbots');
  await knex.schema.alterTable('queues', (t) => {
    for (const column of [
      'outOfHoursMessage',
      'tempoRoteador',
      'ativarRoteador',
      'integrationId',
      'fileListId',
      'closeTicket',
      'schedules',
    ]) {
      t.dropColumn(column);
    }
  });
}
