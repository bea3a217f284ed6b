import type { Knex } from 'knex';

/**
 * The e-mail that tells a company's admins an endpoint was disabled after failing for a day (docs/api.md
 * "Retries"): one notice row per disable, written by the same statement that switches the endpoint off, and
 * claimed with a lease by whichever worker runs the notices job, so the mail goes once per disable even
 * when a process dies on the way. `mailedTo` keeps the addresses already sent, so a retry after a
 * failed send skips them. An endpoint keeps the language its admin last saved it in, for the mail.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhookEndpoints', (t) => {
    // the interface language of the admin who last created or changed it (Accept-Language: pt, en, es, tr)
    t.string('language', 5);
  });
  await knex.schema.createTable('webhookDisableNotices', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    // an endpoint deleted before the mail went still gets its mail: what it was is kept below
    t.integer('endpointId').references('webhookEndpoints.id').onDelete('SET NULL');
    t.string('endpointName', 120).notNullable();
    t.string('endpointUrl', 2000).notNullable();
    t.string('language', 5);
    t.timestamp('disabledAt', { useTz: true }).notNullable();
    // pending (to mail, or to try again), sent, failed (gave up after its attempts)
    t.string('status', 10).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('nextAttemptAt', { useTz: true });
    t.specificType('mailedTo', 'text[]').notNullable().defaultTo('{}');
    t.string('error', 200);
    t.timestamp('sentAt', { useTz: true });
    t.timestamp('leaseUntil', { useTz: true });
    t.uuid('leaseToken');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['endpointId', 'disabledAt']);
  });
  await knex.raw(
    "CREATE INDEX webhook_disable_notices_due ON webhook_disable_notices (next_attempt_at, id) WHERE status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhookDisableNotices');
  await knex.schema.alterTable('webhookEndpoints', (t) => {
    t.dropColumn('language');
  });
}
