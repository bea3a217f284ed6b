import type { Knex } from 'knex';

/**
 * The campaigns' tables (docs/campaigns.md): contact lists and their items, imports, campaigns, one
 * shipping row per recipient (what the dispatcher claims), the pacing of each connection, the company's
 * campaign settings and the numbers that asked to receive no campaign.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaignSettings', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('key', 40).notNullable();
    t.text('value').notNullable();
    t.primary(['companyId', 'key']);
  });

  await knex.schema.createTable('contactLists', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // the connection whose channel says which numbers are valid (none: the company's default connection)
    t.integer('whatsappId').references('whatsapps.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });

  await knex.schema.createTable('contactListItems', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('contactListId').notNullable().references('contactLists.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // digits only, country code first: normalised once, when written
    t.string('number', 20).notNullable();
    t.string('email', 255);
    // null: not known (not checked yet, or the channel can't tell)
    t.boolean('isWhatsappValid');
    t.timestamp('checkedAt', { useTz: true });
    t.timestamps(true, true);
    t.unique(['contactListId', 'number']);
    t.index(['companyId', 'contactListId', 'name']);
  });
  // numbers the connection's channel has not been asked about yet (the check job's worklist)
  await knex.raw(
    'CREATE INDEX contact_list_items_unchecked ON contact_list_items (company_id, contact_list_id, id) WHERE checked_at IS NULL',
  );

  await knex.schema.createTable('contactListImports', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('contactListId').notNullable().references('contactLists.id').onDelete('CASCADE');
    t.string('fileName', 255).notNullable();
    t.string('storageKey', 300).notNullable();
    t.string('format', 4).notNullable();
    // queued, running, done, failed
    t.string('status', 10).notNullable().defaultTo('queued');
    t.integer('progress').notNullable().defaultTo(0);
    t.integer('rows').notNullable().defaultTo(0);
    t.integer('added').notNullable().defaultTo(0);
    t.integer('updated').notNullable().defaultTo(0);
    t.integer('refused').notNullable().defaultTo(0);
    // up to 1,000 refused rows: [{ row, reason }]
    t.jsonb('refusedRows').notNullable().defaultTo('[]');
    t.string('error', 60);
    t.timestamp('heartbeatAt', { useTz: true });
    t.timestamp('finishedAt', { useTz: true });
    t.timestamps(true, true);
    t.index(['companyId', 'contactListId']);
  });
  // an import's valid rows on their way in: streamed here, then merged into the list in one transaction
  await knex.raw(`CREATE UNLOGGED TABLE contact_list_import_rows (
    import_id integer NOT NULL REFERENCES contact_list_imports(id) ON DELETE CASCADE,
    row_number integer NOT NULL,
    name varchar(100) NOT NULL,
    number varchar(20) NOT NULL,
    email varchar(255),
    PRIMARY KEY (import_id, row_number)
  )`);

  await knex.schema.createTable('campaigns', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('status', 12).notNullable().defaultTo('INATIVA');
    t.boolean('confirmation').notNullable().defaultTo(false);
    for (const n of [1, 2, 3, 4, 5]) {
      t.text(`message${n}`).notNullable().defaultTo('');
      t.text(`confirmationMessage${n}`).notNullable().defaultTo('');
    }
    t.timestamp('scheduledAt', { useTz: true });
    t.timestamp('startedAt', { useTz: true });
    t.timestamp('completedAt', { useTz: true });
    t.integer('contactListId').references('contactLists.id').onDelete('SET NULL');
    t.integer('tagListId').references('tags.id').onDelete('SET NULL');
    t.integer('whatsappId').references('whatsapps.id').onDelete('SET NULL');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.integer('queueId').references('queues.id').onDelete('SET NULL');
    t.string('statusTicket', 10).notNullable().defaultTo('closed');
    t.string('openTicket', 10).notNullable().defaultTo('disabled');
    t.text('mediaPath');
    t.string('mediaName', 255);
    t.string('mediaMimetype', 120);
    t.timestamps(true, true);
    t.index(['companyId', 'name']);
  });
  await knex.raw(`ALTER TABLE campaigns ADD CONSTRAINT campaigns_status_check
    CHECK (status IN ('INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'))`);
  // the scheduler's and the dispatchers' worklists (every company)
  await knex.raw(
    `CREATE INDEX campaigns_active ON campaigns (status, scheduled_at) WHERE status IN ('PROGRAMADA', 'EM_ANDAMENTO')`,
  );

  await knex.schema.createTable('campaignShippings', (t) => {
    t.bigIncrements('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('campaignId').notNullable().references('campaigns.id').onDelete('CASCADE');
    t.string('number', 20).notNullable();
    t.string('name', 100).notNullable();
    t.string('email', 255);
    // which of the campaign's messages (1 to 5) this recipient gets, drawn once
    t.smallint('variant').notNullable();
    // queued (a send is due), awaiting (its confirmation asked), delivered, failed, skipped
    t.string('state', 10).notNullable().defaultTo('queued');
    t.string('reason', 60);
    t.smallint('attempts').notNullable().defaultTo(0);
    t.timestamp('dueAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // a claim: the dispatcher holding the row until then (a dead one's rows come back when it passes)
    t.timestamp('leaseUntil', { useTz: true });
    t.uuid('leaseToken');
    // the inbox's messages, recorded in the transaction that stores them
    t.bigInteger('confirmationMessageId');
    t.bigInteger('messageId');
    t.string('channelMessageId', 255);
    t.integer('contactId').references('contacts.id').onDelete('SET NULL');
    t.integer('ticketId').references('tickets.id').onDelete('SET NULL');
    t.timestamp('confirmationRequestedAt', { useTz: true });
    t.timestamp('confirmedAt', { useTz: true });
    t.timestamp('deliveredAt', { useTz: true });
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['campaignId', 'number']);
    t.index(['companyId', 'campaignId', 'state']);
  });
  await knex.raw(`CREATE INDEX campaign_shippings_due ON campaign_shippings (campaign_id, due_at, id) WHERE state = 'queued'`);
  await knex.raw(
    `CREATE INDEX campaign_shippings_awaiting ON campaign_shippings (company_id, contact_id) WHERE state = 'awaiting'`,
  );
  await knex.raw('CREATE INDEX campaign_shippings_contact ON campaign_shippings (company_id, contact_id)');

  // when a connection may send its next campaign message (shared by every campaign on it)
  await knex.schema.createTable('campaignPacing', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('whatsappId').notNullable().references('whatsapps.id').onDelete('CASCADE');
    t.timestamp('nextAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('sentSincePause').notNullable().defaultTo(0);
    t.primary(['companyId', 'whatsappId']);
  });

  await knex.schema.createTable('campaignOptOuts', (t) => {
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('number', 20).notNullable();
    t.string('word', 40);
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['companyId', 'number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'campaignOptOuts',
    'campaignPacing',
    'campaignShippings',
    'campaigns',
    'contactListImportRows',
    'contactListImports',
    'contactListItems',
    'contactLists',
    'campaignSettings',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
