import type { Knex } from 'knex';

/**
 * The flow runtime's state (docs/product/automation.md "Flows at work"): one run per ticket — its flow,
 * the node it is at, its variables and what it waits for — so that any worker process, after a restart,
 * carries it on; and the steps it took, for the replay view.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('flowRuns', (t) => {
    t.integer('ticketId').primary().references('tickets.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('flowId').notNullable().references('flowBuilders.id').onDelete('CASCADE');
    t.string('nodeId', 64).notNullable();
    // inside a content node: the next element to send
    t.integer('elementIndex').notNullable().defaultTo(0);
    // running (walking now), waiting (an answer or an interval), paused (integration toggle off), done, stopped, failed
    t.string('status', 10).notNullable();
    // answer | interval | typebot, while waiting
    t.string('waitingFor', 10);
    // grows by one at every step: names the step's messages and its interval job (each happens once)
    t.integer('step').notNullable().defaultTo(0);
    t.jsonb('variables').notNullable().defaultTo('{}');
    // invalid answers to the menu it waits at, and when that menu was first sent
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('askedAt', { useTz: true });
    t.timestamp('dueAt', { useTz: true });
    // the last customer message consumed: a message delivered twice moves the run once
    t.bigInteger('lastMessageId');
    t.string('typebotSessionId', 200);
    t.string('endReason', 40);
    t.timestamp('startedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updatedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'flowId']);
  });
  // the sweeper's query: runs left mid-walk by a process that died
  await knex.raw(`CREATE INDEX flow_runs_running ON flow_runs (updated_at) WHERE status = 'running'`);

  await knex.schema.createTable('flowRunSteps', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.integer('flowId').notNullable();
    t.string('nodeId', 64).notNullable();
    t.jsonb('variables').notNullable().defaultTo('{}');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'ticketId', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flowRunSteps');
  await knex.schema.dropTable('flowRuns');
}
