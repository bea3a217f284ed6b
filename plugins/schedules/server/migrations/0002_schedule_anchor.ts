import type { Knex } from 'knex';

/**
 * A repeating schedule's first send time (`anchorAt`): each next occurrence is the anchor plus n intervals,
 * so a monthly schedule set for the 31st goes on the 31st (or the month's last day) and never drifts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schedules', (t) => {
    t.timestamp('anchorAt', { useTz: true });
  });
  await knex.raw('UPDATE schedules SET anchor_at = send_at');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('schedules', (t) => {
    t.dropColumn('anchorAt');
  });
}
