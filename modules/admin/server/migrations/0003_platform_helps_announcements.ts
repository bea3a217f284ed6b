import type { Knex } from 'knex';

/**
 * The platform's own tables (docs/product/administration.md#entities Help, docs/product/automation.md#entities Announcement). Both belong to the
 * platform, not to a tenant: the super user writes them and every company reads them, so they carry no
 * company_id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('helps', (t) => {
    t.increments('id');
    t.string('title', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    // the video provider's identifier (a YouTube id), or the address it was pasted as
    t.string('video', 500).notNullable().defaultTo('');
    t.timestamps(true, true);
  });

  await knex.schema.createTable('announcements', (t) => {
    t.increments('id');
    t.string('title', 200).notNullable();
    t.text('text').notNullable();
    // 1 high, 2 medium, 3 low (docs/product/automation.md#entities)
    t.smallint('priority').notNullable().defaultTo(3);
    t.boolean('status').notNullable().defaultTo(true);
    // a key in the platform company's storage, and the name the file was uploaded as
    t.string('mediaPath', 500);
    t.string('mediaName', 255);
    t.timestamps(true, true);
    t.index(['status', 'priority']);
  });
  await knex.raw('ALTER TABLE announcements ADD CONSTRAINT announcements_priority_check CHECK (priority BETWEEN 1 AND 3)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('announcements');
  await knex.schema.dropTableIfExists('helps');
}
