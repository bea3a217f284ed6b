import type { Knex } from 'knex';

/**
 * The inbox's tables: queues (the basic part: name and colour, users' membership), contacts and the
 * channel identities that find them, tags, tickets, messages, notes, logs, ratings and quick messages.
 * Every tenant table leads its indexes with company_id.
 */
export async function up(knex: Knex): Promise<void> {
  // trigram indexes make "search inside message contents" and contact search fast at 1M rows
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');

  await knex.schema.createTable('queues', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('color', 9).notNullable().defaultTo('#7C7C7C');
    t.text('greetingMessage');
    t.integer('orderQueue');
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });

  await knex.schema.createTable('userQueues', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('userId').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('queueId').notNullable().references('queues.id').onDelete('CASCADE');
    t.primary(['userId', 'queueId']);
    t.index(['companyId', 'queueId']);
  });

  await knex.schema.createTable('contacts', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 250).notNullable();
    // digits only for phone channels; null for channels without a number (webchat, Instagram)
    t.string('number', 50);
    t.string('email', 255);
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('disableBot').notNullable().defaultTo(false);
    t.boolean('acceptAudioMessage').notNullable().defaultTo(true);
    t.timestamp('lgpdAcceptedAt', { useTz: true });
    t.text('urlPicture');
    t.boolean('isGroup').notNullable().defaultTo(false);
    t.string('channel', 20).notNullable().defaultTo('whatsapp');
    t.integer('whatsappId');
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });
  await knex.raw('CREATE UNIQUE INDEX contacts_company_number_unique ON contacts (company_id, number) WHERE number IS NOT NULL');
  await knex.raw('CREATE INDEX contacts_name_trgm ON contacts USING gin (name gin_trgm_ops)');
  await knex.raw('CREATE INDEX contacts_number_trgm ON contacts USING gin (number gin_trgm_ops)');
  await knex.raw('CREATE INDEX contacts_email_trgm ON contacts USING gin (email gin_trgm_ops)');

  // Every identifier a channel knows a contact by (a phone JID, a LID, a page-scoped id, a webchat
  // visitor id): inbound messages find their contact here, so one person stays one contact.
  await knex.schema.createTable('contactIdentities', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('contactId').notNullable().references('contacts.id').onDelete('CASCADE');
    t.string('channel', 20).notNullable();
    t.string('identifier', 255).notNullable();
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['companyId', 'channel', 'identifier']);
    t.index(['companyId', 'contactId']);
  });

  await knex.schema.createTable('contactCustomFields', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('contactId').notNullable().references('contacts.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('value').notNullable().defaultTo('');
    t.index(['companyId', 'contactId']);
  });

  await knex.schema.createTable('tags', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('color', 9).notNullable().defaultTo('#7C7C7C');
    t.smallint('kanban').notNullable().defaultTo(0);
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.integer('timeLane');
    t.integer('nextLaneId').references('tags.id').onDelete('SET NULL');
    t.text('greetingMessageLane');
    t.integer('rollbackLaneId').references('tags.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['companyId', 'kanban', 'name']);
  });

  await knex.schema.createTable('contactTags', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('contactId').notNullable().references('contacts.id').onDelete('CASCADE');
    t.integer('tagId').notNullable().references('tags.id').onDelete('CASCADE');
    t.primary(['contactId', 'tagId']);
    t.index(['companyId', 'tagId']);
  });

  await knex.schema.createTable('tickets', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.uuid('uuid').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('status', 10).notNullable().defaultTo('pending');
    t.integer('contactId').notNullable().references('contacts.id').onDelete('CASCADE');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.integer('queueId').references('queues.id').onDelete('SET NULL');
    // the connection (channels plugin); no foreign key until connections exist
    t.integer('whatsappId');
    t.string('channel', 20).notNullable().defaultTo('whatsapp');
    t.boolean('isGroup').notNullable().defaultTo(false);
    t.boolean('isBot').notNullable().defaultTo(false);
    t.integer('unreadMessages').notNullable().defaultTo(0);
    t.text('lastMessage').notNullable().defaultTo('');
    t.boolean('useIntegration').notNullable().defaultTo(false);
    t.integer('integrationId');
    t.integer('amountUsedBotQueues').notNullable().defaultTo(0);
    t.timestamp('closedAt', { useTz: true });
    t.timestamps(true, true);
  });
  await knex.raw(`ALTER TABLE tickets ADD CONSTRAINT tickets_status_check
    CHECK (status IN ('pending', 'open', 'closed', 'group', 'lgpd', 'nps'))`);
  // A contact has at most one ticket that is not closed per connection: concurrent inbound messages
  // can't open two, and "create" finds the existing one.
  await knex.raw(`CREATE UNIQUE INDEX tickets_one_active_per_contact
    ON tickets (company_id, contact_id, coalesce(whatsapp_id, 0)) WHERE status <> 'closed'`);
  await knex.raw('CREATE INDEX tickets_company_status_updated ON tickets (company_id, status, updated_at DESC, id DESC)');
  // an agent's own tickets in list order; queue_id included so a tab's queue filter and its count read
  // the index only (ticket-list.service.ts listBranches)
  await knex.raw(
    'CREATE INDEX tickets_company_user_status ON tickets (company_id, user_id, status, updated_at DESC, id DESC) INCLUDE (queue_id)',
  );
  await knex.raw('CREATE INDEX tickets_company_queue_status ON tickets (company_id, queue_id, status, updated_at DESC)');
  await knex.raw('CREATE INDEX tickets_company_contact ON tickets (company_id, contact_id)');
  // the search view has no status: list order over every ticket (a common search text is probed ticket
  // by ticket in that order and stops with the page)
  await knex.raw('CREATE INDEX tickets_company_updated ON tickets (company_id, updated_at DESC, id DESC)');
  // the unassigned tickets of a queue: the other half of an agent's lists (their own tickets have
  // tickets_company_user_status), without visiting every assigned ticket of the queue; is_group included
  // for the index-only count of a tab
  await knex.raw(
    `CREATE INDEX tickets_unassigned_queue ON tickets (company_id, queue_id, status, updated_at DESC, id DESC)
      INCLUDE (is_group) WHERE user_id IS NULL`,
  );

  await knex.schema.createTable('ticketTags', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.integer('tagId').notNullable().references('tags.id').onDelete('CASCADE');
    t.primary(['ticketId', 'tagId']);
    t.index(['companyId', 'tagId']);
  });

  await knex.schema.createTable('messages', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.integer('contactId').references('contacts.id').onDelete('SET NULL');
    // the agent who wrote an outbound message
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.integer('queueId').references('queues.id').onDelete('SET NULL');
    t.integer('whatsappId');
    // the channel's own id of the message: stored once per connection
    t.string('channelMessageId', 255);
    t.text('body').notNullable().defaultTo('');
    t.boolean('fromMe').notNullable().defaultTo(false);
    t.smallint('ack').notNullable().defaultTo(0);
    t.boolean('read').notNullable().defaultTo(false);
    t.string('mediaType', 30).notNullable().defaultTo('chat');
    t.text('mediaPath');
    t.string('mediaName', 255);
    t.bigInteger('quotedMsgId').references('messages.id').onDelete('SET NULL');
    t.boolean('isPrivate').notNullable().defaultTo(false);
    t.boolean('isEdited').notNullable().defaultTo(false);
    t.boolean('isDeleted').notNullable().defaultTo(false);
    t.boolean('isForwarded').notNullable().defaultTo(false);
    t.jsonb('reactions').notNullable().defaultTo('[]');
    t.string('sendStatus', 10).notNullable().defaultTo('sent');
    t.string('sendError', 60);
    t.jsonb('dataJson');
    t.timestamps(true, true);
  });
  await knex.raw(`CREATE UNIQUE INDEX messages_channel_id_unique ON messages (company_id, whatsapp_id, channel_message_id)
    WHERE channel_message_id IS NOT NULL AND whatsapp_id IS NOT NULL`);
  await knex.raw('CREATE INDEX messages_ticket_created ON messages (company_id, ticket_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX messages_body_trgm ON messages USING gin (body gin_trgm_ops)');
  // Foreign-key actions look rows up by the referencing column alone: deleting a ticket cascades to its
  // messages, deleting a message or a contact nulls the references to it. Without these (company_id leads
  // the other indexes), each of them is a scan of every message.
  await knex.raw('CREATE INDEX messages_ticket ON messages (ticket_id)');
  await knex.raw('CREATE INDEX messages_contact ON messages (contact_id) WHERE contact_id IS NOT NULL');
  await knex.raw('CREATE INDEX messages_quoted ON messages (quoted_msg_id) WHERE quoted_msg_id IS NOT NULL');
  await knex.raw(`CREATE INDEX messages_pending_delivery ON messages (company_id, id) WHERE send_status <> 'sent'`);

  await knex.schema.createTable('ticketNotes', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.integer('contactId').notNullable().references('contacts.id').onDelete('CASCADE');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.text('note').notNullable();
    t.timestamps(true, true);
    t.index(['companyId', 'ticketId']);
    t.index(['companyId', 'contactId']);
  });

  await knex.schema.createTable('ticketLogs', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.string('type', 20).notNullable();
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.integer('queueId').references('queues.id').onDelete('SET NULL');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'ticketId', 'createdAt']);
  });

  await knex.schema.createTable('ticketRatings', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('ticketId').notNullable().references('tickets.id').onDelete('CASCADE');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.smallint('rate').notNullable();
    t.timestamps(true, true);
    t.unique(['ticketId']);
    t.index(['companyId', 'userId']);
  });

  await knex.schema.createTable('quickMessages', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.string('shortcode', 100).notNullable();
    t.text('message').notNullable().defaultTo('');
    t.boolean('geral').notNullable().defaultTo(false);
    t.boolean('visao').notNullable().defaultTo(true);
    t.boolean('status').notNullable().defaultTo(true);
    t.boolean('isMedia').notNullable().defaultTo(false);
    t.text('mediaPath');
    t.string('mediaName', 255);
    t.timestamps(true, true);
    t.index(['companyId', 'shortcode']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'quickMessages',
    'ticketRatings',
    'ticketLogs',
    'ticketNotes',
    'messages',
    'ticketTags',
    'tickets',
    'contactTags',
    'tags',
    'contactCustomFields',
    'contactIdentities',
    'contacts',
    'userQueues',
    'queues',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
