import type { Knex } from 'knex';

/**
 * API keys for machine clients (docs/api.md "API keys"): only a SHA-256 of each key's secret is kept
 * (the secret is 190 random bits, shown once, so a slow hash would add nothing but latency to every call).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('apiKeys', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.string('secretHash', 64).notNullable();
    t.string('hint', 24).notNullable();
    // the admin the key acts as; deleting them ends the key
    t.integer('createdBy').references('users.id').onDelete('CASCADE');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('lastUsedAt', { useTz: true });
    t.timestamp('revokedAt', { useTz: true });
    t.index(['companyId', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('apiKeys');
}
