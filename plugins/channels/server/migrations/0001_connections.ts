import type { Knex } from 'knex';

/**
 * Connections (docs/product/administration.md#entities Connection, the documented `whatsapp` entity) and their queues. Tickets and
 * messages already carry `whatsappId` (the inbox's migration); no foreign key is added to them: a deleted
 * connection's tickets stay in the history (see docs/channels/connections.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('whatsapps', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 50).notNullable();
    // the phone number (WhatsApp), page or account (Meta), empty for webchat until it is used
    t.string('number', 100).notNullable().defaultTo('');
    // whatsapp, whatsappapi, facebook, instagram, webchat
    t.string('channel', 20).notNullable();
    // qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING, CONNECTED (docs/product/administration.md#states-and-transitions)
    t.string('status', 20).notNullable().defaultTo('DISCONNECTED');
    t.boolean('isDefault').notNullable().defaultTo(false);
    t.boolean('allowGroup').notNullable().defaultTo(false);
    t.string('groupAsTicket', 10).notNullable().defaultTo('disabled');
    // 30 random alphanumerics (docs/product/administration.md#constants-and-limits), regenerable
    t.string('token', 30).notNullable();
    t.text('greetingMessage').notNullable().defaultTo('');
    t.text('complationMessage').notNullable().defaultTo('');
    t.text('outOfHoursMessage').notNullable().defaultTo('');
    t.text('ratingMessage').notNullable().defaultTo('');
    t.text('collectiveVacationMessage').notNullable().defaultTo('');
    t.date('collectiveVacationStart');
    t.date('collectiveVacationEnd');
    t.integer('maxUseBotQueues').notNullable().defaultTo(3);
    t.integer('timeUseBotQueues').notNullable().defaultTo(0);
    t.integer('maxUseBotQueuesNPS').notNullable().defaultTo(3);
    t.integer('expiresTicket').notNullable().defaultTo(0);
    t.smallint('whenExpiresTicket').notNullable().defaultTo(0);
    t.integer('expiresTicketNPS').notNullable().defaultTo(0);
    t.text('expiresInactiveMessage').notNullable().defaultTo('');
    t.integer('timeInactiveMessage').notNullable().defaultTo(0);
    t.text('inactiveMessage').notNullable().defaultTo('');
    t.integer('timeCreateNewTicket').notNullable().defaultTo(0);
    t.integer('timeSendQueue').notNullable().defaultTo(0);
    t.integer('sendIdQueue').references('queues.id').onDelete('SET NULL');
    t.integer('integrationId');
    t.integer('promptId');
    t.integer('flowIdWelcome');
    t.integer('flowIdNotPhrase');
    t.jsonb('schedules').notNullable().defaultTo('[]');
    t.string('greetingMediaAttachment', 255);
    t.text('lgpdMessage').notNullable().defaultTo('');
    // message import (WhatsApp): the window and what to do with imported tickets
    t.date('importOldMessages');
    t.date('importRecentMessages');
    t.boolean('importOldMessagesGroups').notNullable().defaultTo(false);
    t.boolean('closedTicketsPostImported').notNullable().defaultTo(false);
    t.integer('queueIdImportMessages').references('queues.id').onDelete('SET NULL');
    t.string('statusImportMessages', 40);
    t.text('qrcode').notNullable().defaultTo('');
    t.string('provider', 20).notNullable().defaultTo('beta');
    t.integer('retries').notNullable().defaultTo(0);
    // channel-specific settings (webchat: widget key, identity secret, allowed origins, pre-chat form, look)
    t.jsonb('channelConfig').notNullable().defaultTo('{}');
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });
  // one default connection per company
  await knex.raw('CREATE UNIQUE INDEX whatsapps_one_default ON whatsapps (company_id) WHERE is_default');
  await knex.raw('CREATE UNIQUE INDEX whatsapps_token_unique ON whatsapps (token)');

  await knex.schema.createTable('whatsappQueues', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.integer('queueId').notNullable().references('queues.id').onDelete('CASCADE');
    t.primary(['whatsappId', 'queueId']);
    t.index(['companyId', 'queueId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('whatsappQueues');
  await knex.schema.dropTableIfExists('whatsapps');
}
