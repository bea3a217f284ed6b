import type { Knex } from 'knex';

/**
 * The kanban's own tables. Lanes are the inbox's tags with kanban = 1 and a ticket's lane is its
 * kanban ticket tag; these tables hold only what the kanban adds: when a ticket entered its lane (the
 * lane timer and the rollback read it) and the embed keys of the widget.
 */
export async function up(knex: Knex): Promise<void> {
  // One row per ticket that sits in a lane: the lane timer fires for exactly this entry (entryId) and a
  // conditional delete of the row makes every automatic move happen once.
  await knex.schema.createTable('kanbanPlacements', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().primary().references('tickets.id').onDelete('CASCADE');
    t.integer('laneId').notNullable().references('tags.id').onDelete('CASCADE');
    t.timestamp('enteredAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // a fresh id per entry: a lane timer names the entry it was set for, so a stale timer does nothing
    t.uuid('entryId').notNullable().defaultTo(knex.raw('gen_random_uuid()'));
    t.index(['companyId', 'laneId']);
  });
  // the sweep finds due timers across companies by entry time
  await knex.raw('CREATE INDEX kanban_placements_entered ON kanban_placements (entered_at)');

  await knex.schema.createTable('kanbanEmbedKeys', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // the public key written in the embedding page's <script> tag
    t.string('key', 80).notNullable().unique();
    // signs the short-lived user tokens of signed-user mode (HMAC-SHA256); shown to admins only
    t.string('secret', 80).notNullable();
    t.jsonb('allowedOrigins').notNullable().defaultTo('[]');
    t.boolean('mayMove').notNullable().defaultTo(false);
    t.boolean('signedUsers').notNullable().defaultTo(false);
    // null: every lane and the default lane; otherwise only these lanes
    t.jsonb('laneIds');
    t.timestamp('revokedAt', { useTz: true });
    t.timestamp('lastUsedAt', { useTz: true });
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });

  // Moves made through the embedded widget, with who made them (signed-user mode) and through which key.
  await knex.schema.createTable('kanbanEmbedMoves', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.integer('embedKeyId').references('kanbanEmbedKeys.id').onDelete('SET NULL');
    t.integer('fromLaneId').references('tags.id').onDelete('SET NULL');
    t.integer('toLaneId').references('tags.id').onDelete('SET NULL');
    // the embedding site's user (signed-user mode), and the Balcão user of the same e-mail if any
    t.string('actorSub', 200);
    t.string('actorName', 200);
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'ticketId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('kanbanEmbedMoves');
  await knex.schema.dropTableIfExists('kanbanEmbedKeys');
  await knex.schema.dropTableIfExists('kanbanPlacements');
}
