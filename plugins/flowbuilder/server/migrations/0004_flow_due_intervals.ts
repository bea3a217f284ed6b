import type { Knex } from 'knex';

/**
 * The runs waiting on an interval, by company and due time: a `flow-due` job claims a company's due runs
 * in batches through it, and the sweeper finds intervals long past due (their job lost) the same way.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX flow_runs_due ON flow_runs (company_id, due_at) WHERE status = 'waiting' AND waiting_for = 'interval'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX flow_runs_due');
}
