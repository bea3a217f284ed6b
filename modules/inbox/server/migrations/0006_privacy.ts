import type { Knex } from 'knex';

/**
 * The company's LGPD duties (privacy/): how long messages are kept, and a log of who exported or erased
 * a contact's data and what the retention job removed. Two indexes let the retention job and the erasure
 * work in small batches: messages by age within a company, and the messages naming a stored file (a
 * forward shares its original's file, which is deleted only with the last message naming it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('privacyRetention', (t) => {
    t.integer('companyId').primary().references('companies.id').onDelete('CASCADE');
    t.smallint('months').notNullable();
    t.integer('updatedBy').references('users.id').onDelete('SET NULL');
    t.timestamp('updatedAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // while a retention run works on the company: another run waits; a killed worker's claim runs out
    t.timestamp('leaseUntil', { useTz: true });
  });
  await knex.raw('ALTER TABLE privacy_retention ADD CONSTRAINT privacy_retention_months CHECK (months BETWEEN 1 AND 120)');

  await knex.schema.createTable('privacyLog', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('action', 10).notNullable();
    // no foreign key: the log outlives a contact deleted later
    t.integer('contactId');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'createdAt']);
  });
  await knex.raw(`ALTER TABLE privacy_log ADD CONSTRAINT privacy_log_action CHECK (action IN ('export', 'erase', 'retention'))`);

  await knex.raw('CREATE INDEX messages_company_created ON messages (company_id, created_at)');
  await knex.raw('CREATE INDEX messages_company_media ON messages (company_id, media_path) WHERE media_path IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS messages_company_media');
  await knex.raw('DROP INDEX IF EXISTS messages_company_created');
  await knex.schema.dropTableIfExists('privacyLog');
  await knex.schema.dropTableIfExists('privacyRetention');
}
