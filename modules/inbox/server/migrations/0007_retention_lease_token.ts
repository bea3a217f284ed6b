import type { Knex } from 'knex';

/**
 * The retention run's claim on its company gets an owner: the run that took it renews and releases it
 * only while the token is still its own, so a run whose claim ran out (a slow storage, a paused worker)
 * and was taken over stops instead of working beside the new one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('privacyRetention', (t) => {
    t.uuid('leaseToken');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('privacyRetention', (t) => {
    t.dropColumn('leaseToken');
  });
}
