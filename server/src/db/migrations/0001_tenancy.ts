import { PLAN_FLAGS } from '@balcao/plugin-sdk/shared';
import type { Knex } from 'knex';

/** Plans, companies, users, settings and refresh tokens: what auth, tenancy and plan flags need. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable().unique();
    t.integer('users').notNullable().defaultTo(0);
    t.integer('connections').notNullable().defaultTo(0);
    t.integer('queues').notNullable().defaultTo(0);
    t.decimal('amount', 12, 2).notNullable().defaultTo(0);
    t.boolean('isPublic').notNullable().defaultTo(true);
    for (const flag of PLAN_FLAGS) t.boolean(flag).notNullable().defaultTo(false);
    t.timestamps(true, true);
  });

  await knex.schema.createTable('companies', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('email', 255);
    t.string('phone', 50);
    t.string('document', 50);
    t.string('addressStreet', 255);
    t.string('addressState', 100);
    t.string('addressCity', 100);
    t.integer('planId').notNullable().references('plans.id').onDelete('RESTRICT');
    t.boolean('status').notNullable().defaultTo(true);
    t.date('dueDate').notNullable();
    t.string('recurrence', 20).notNullable().defaultTo('MENSAL');
    t.string('paymentMethod', 50);
    t.integer('numberAttendants').notNullable().defaultTo(1);
    t.integer('numberConections').notNullable().defaultTo(1);
    t.decimal('value', 12, 2);
    t.timestamp('lastLogin', { useTz: true });
    t.timestamps(true, true);
    t.index(['planId']);
  });

  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('email', 255).notNullable();
    t.string('passwordHash', 255).notNullable();
    t.string('profile', 10).notNullable().defaultTo('user');
    t.boolean('super').notNullable().defaultTo(false);
    t.string('profileImage', 255);
    t.integer('whatsappId');
    t.string('startWork', 5).notNullable().defaultTo('00:00');
    t.string('endWork', 5).notNullable().defaultTo('23:59');
    t.text('farewellMessage');
    t.string('allTicket', 10).notNullable().defaultTo('disable');
    t.boolean('allowGroup').notNullable().defaultTo(false);
    t.string('defaultTheme', 10).notNullable().defaultTo('light');
    t.string('defaultMenu', 10).notNullable().defaultTo('open');
    t.string('allHistoric', 10).notNullable().defaultTo('disabled');
    t.string('allUserChat', 10).notNullable().defaultTo('disabled');
    t.string('userClosePendingTicket', 10).notNullable().defaultTo('enabled');
    t.string('showDashboard', 10).notNullable().defaultTo('disabled');
    t.string('allowRealTime', 10).notNullable().defaultTo('disabled');
    t.string('allowConnections', 10).notNullable().defaultTo('disabled');
    t.integer('defaultTicketsManagerWidth').notNullable().defaultTo(550);
    t.boolean('online').notNullable().defaultTo(false);
    t.timestamp('lastSeenAt', { useTz: true });
    t.timestamps(true, true);
    t.index(['companyId', 'id']);
  });
  await knex.raw('CREATE UNIQUE INDEX users_email_unique ON users (lower(email))');
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_profile_check CHECK (profile IN ('admin', 'user'))`);

  await knex.schema.createTable('settings', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('key', 100).notNullable();
    t.text('value').notNullable().defaultTo('');
    t.timestamps(true, true);
    t.unique(['companyId', 'key']);
  });

  await knex.schema.createTable('refreshTokens', (t) => {
    t.uuid('id').primary();
    t.uuid('familyId').notNullable();
    t.integer('userId').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('tokenHash', 64).notNullable();
    t.boolean('persistent').notNullable().defaultTo(false);
    t.timestamp('expiresAt', { useTz: true }).notNullable();
    t.timestamp('usedAt', { useTz: true });
    t.timestamp('revokedAt', { useTz: true });
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['familyId']);
    t.index(['userId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['refreshTokens', 'settings', 'users', 'companies', 'plans']) {
    await knex.schema.dropTableIfExists(table);
  }
}
