import type { Knex } from 'knex';

/**
 * File lists (docs/product/automation.md "File lists"): a named list with its message, and its options,
 * each a name and at most one uploaded file stored under the company (`ctx.storage`, like the inbox's media).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('files', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('message').notNullable();
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });
  await knex.schema.createTable('filesOptions', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('fileId').notNullable().references('files.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // the stored file's key under the company, its original name and content type (null until uploaded)
    t.string('path', 300);
    t.string('originalName', 200);
    t.string('mimetype', 120);
    t.string('mediaType', 20);
    t.integer('orderOption').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['companyId', 'fileId', 'orderOption']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('filesOptions');
  await knex.schema.dropTableIfExists('files');
}
