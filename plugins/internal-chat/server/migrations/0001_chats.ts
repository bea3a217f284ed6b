import type { Knex } from 'knex';

/**
 * The internal chat's tables (docs/product/automation.md "Internal chat"): chats, their members with each
 * member's unread count and last read mark, and the messages (text and an optional stored file).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chats', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.uuid('uuid').notNullable().defaultTo(knex.raw('gen_random_uuid()')).unique();
    t.string('title', 100).notNullable();
    // the owner alone edits and deletes; a deleted owner leaves the chat to its members, unowned
    t.integer('ownerId').references('users.id').onDelete('SET NULL');
    t.text('lastMessage').notNullable().defaultTo('');
    t.timestamps(true, true);
    t.index(['companyId', 'updatedAt']);
  });

  await knex.schema.createTable('chatUsers', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('chatId').notNullable().references('chats.id').onDelete('CASCADE');
    t.integer('userId').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('unreads').notNullable().defaultTo(0);
    // when the member last read the chat: "seen by" under the last message
    t.timestamp('lastReadAt', { useTz: true });
    t.timestamps(true, true);
    t.unique(['chatId', 'userId']);
    // a user's chats (the list, the popover, the menu dot)
    t.index(['companyId', 'userId', 'chatId']);
  });

  await knex.schema.createTable('chatMessages', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('chatId').notNullable().references('chats.id').onDelete('CASCADE');
    t.integer('senderId').references('users.id').onDelete('SET NULL');
    t.text('message').notNullable().defaultTo('');
    // a stored file (ctx.storage key under the company's folder) and the name it was sent with
    t.string('mediaPath', 300);
    t.string('mediaName', 200);
    t.string('mediaType', 100);
    t.timestamps(true, true);
    t.index(['chatId', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('chatMessages');
  await knex.schema.dropTable('chatUsers');
  await knex.schema.dropTable('chats');
}
