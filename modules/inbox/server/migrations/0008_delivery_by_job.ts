import type { Knex } from 'knex';

/**
 * Outbound messages whose delivery belongs to the `deliver-message` job (what agents send, the product's
 * own texts, retries) say so, and a partial index finds those still pending: the message is committed
 * before its job is queued, so a process that dies in between leaves a pending message that only the
 * pending-delivery sweep (messages/pending-sweep.ts) puts back in line. Messages staged in bulk (the
 * message API, campaigns, schedules) are delivered by their callers, whose claimed rows recover them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.boolean('deliveryByJob').notNullable().defaultTo(false);
  });
  await knex.raw(
    `CREATE INDEX messages_job_delivery_pending ON messages (updated_at) WHERE send_status = 'pending' AND delivery_by_job`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS messages_job_delivery_pending');
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('deliveryByJob');
  });
}
