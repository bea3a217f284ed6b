import type { Knex } from 'knex';

/**
 * `metaTemplateSends.messageId`: the stored message a chosen template became, set the first time the
 * driver delivers it. A row is matched by ticket and text only while it has none; after, only by that
 * message (its retries), so a later message with the same text is free-form again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('metaTemplateSends', (t) => {
    t.bigInteger('messageId').nullable();
    t.index(['companyId', 'messageId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('metaTemplateSends', (t) => {
    t.dropIndex(['companyId', 'messageId']);
    t.dropColumn('messageId');
  });
}
