import type { Knex } from 'knex';

/** Codes of the two-step password reset (docs/product/administration.md#states-and-transitions): only a hash is kept. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('passwordResetCodes', (t) => {
    t.increments('id');
    t.integer('userId').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('codeHash', 64).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('expiresAt', { useTz: true }).notNullable();
    t.timestamp('usedAt', { useTz: true });
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['userId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('passwordResetCodes');
}
