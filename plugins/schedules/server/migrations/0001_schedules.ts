import type { Knex } from 'knex';

/**
 * The schedules' table (docs/schedules.md): one row per scheduled message to a contact. The row is also the
 * unit the dispatcher claims (`dueAt`, a lease with a token) and remembers the message it stored for the
 * occurrence in flight (`messageId`), so a process killed mid-send never stores or sends it twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('schedules', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('body').notNullable();
    // the occurrence's time as the user set it (the calendar shows it) …
    t.timestamp('sendAt', { useTz: true }).notNullable();
    // … and when it really goes: sendAt moved to the next business time when tipoDias asks for it
    t.timestamp('dueAt', { useTz: true }).notNullable();
    t.integer('contactId').notNullable().references('contacts.id').onDelete('CASCADE');
    // who created it (the signature's default agent)
    t.integer('userId').references('users.id').onDelete('SET NULL');
    t.integer('ticketUserId').references('users.id').onDelete('SET NULL');
    t.integer('queueId').references('queues.id').onDelete('SET NULL');
    t.integer('whatsappId').references('whatsapps.id').onDelete('SET NULL');
    // recurrence: unit (1 days, 2 weeks, 3 months, 4 minutes), amount, total sends
    t.integer('intervalo').notNullable().defaultTo(1);
    t.integer('valorIntervalo').notNullable().defaultTo(0);
    t.integer('enviarQuantasVezes').notNullable().defaultTo(1);
    // 4: any day; 5: business days and the company's hours only
    t.integer('tipoDias').notNullable().defaultTo(4);
    t.string('openTicket', 10).notNullable().defaultTo('disabled');
    t.string('statusTicket', 10).notNullable().defaultTo('closed');
    t.boolean('assinar').notNullable().defaultTo(false);
    t.string('mediaPath', 300);
    t.string('mediaName', 255);
    t.string('mediaMimetype', 120);
    // PENDENTE (sends left), ENVIADA (all sent), ERRO (gave up)
    t.string('status', 10).notNullable().defaultTo('PENDENTE');
    t.timestamp('sentAt', { useTz: true });
    t.integer('sentCount').notNullable().defaultTo(0);
    t.integer('ticketId');
    // the message stored for the occurrence in flight (null between occurrences)
    t.bigInteger('messageId');
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('error', 60);
    t.timestamp('leaseUntil', { useTz: true });
    t.uuid('leaseToken');
    t.timestamps(true, true);
    t.index(['companyId', 'sendAt']);
    t.index(['companyId', 'contactId']);
  });
  // the dispatcher's worklist: due rows of every company, in order
  await knex.raw("CREATE INDEX schedules_due ON schedules (due_at, id) WHERE status = 'PENDENTE'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('schedules');
}
