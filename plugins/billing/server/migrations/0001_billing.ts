import type { Knex } from 'knex';

/**
 * The billing's tables (docs/billing.md): invoices (one per company and period, made by the scheduled
 * job), the Pix charges opened to pay them, and the log of what happened to payments — webhooks refused,
 * invoices marked paid by hand (who and when).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invoices', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('detail', 255).notNullable();
    // recurring: the period's invoice made by the job; subscription: a plan chosen at checkout; oneoff: the super user's
    t.string('kind', 12).notNullable();
    // the company's due date the invoice pays (recurring invoices only): one invoice per company and period
    t.date('period');
    t.date('dueDate').notNullable();
    t.decimal('value', 12, 2).notNullable();
    t.integer('users').notNullable();
    t.integer('connections').notNullable();
    // the plan the company moves to when a subscription invoice is paid (null: it keeps its plan)
    t.integer('planId').references('plans.id').onDelete('SET NULL');
    t.string('status', 6).notNullable().defaultTo('open');
    t.timestamp('paidAt', { useTz: true });
    // pix (through the gateway) or manual (the super user in paidBy)
    t.string('paidWith', 10);
    t.integer('paidBy').references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['companyId', 'dueDate']);
  });
  await knex.raw('CREATE UNIQUE INDEX invoices_company_period ON invoices (company_id, period) WHERE period IS NOT NULL');

  await knex.schema.createTable('billingCharges', (t) => {
    t.increments('id');
    t.integer('companyId').notNullable().references('companies.id').onDelete('CASCADE');
    t.integer('invoiceId').notNullable().references('invoices.id').onDelete('CASCADE');
    t.string('gateway', 20).notNullable();
    // the charge's id at the gateway (Efí: 26 to 35 letters and digits)
    t.string('txid', 35).notNullable().unique();
    t.decimal('amount', 12, 2).notNullable();
    // ATIVA until paid (CONCLUIDA) or dropped (REMOVIDA)
    t.string('status', 12).notNullable().defaultTo('ATIVA');
    t.text('copyPaste').notNullable();
    t.text('qrImage');
    t.timestamp('expiresAt', { useTz: true }).notNullable();
    t.string('endToEndId', 60);
    t.timestamp('paidAt', { useTz: true });
    t.timestamps(true, true);
    t.index(['companyId', 'invoiceId']);
  });
  // what the confirmation poll walks: charges still waiting
  await knex.raw("CREATE INDEX billing_charges_waiting ON billing_charges (expires_at) WHERE status = 'ATIVA'");

  await knex.schema.createTable('billingEvents', (t) => {
    t.bigIncrements('id');
    // null when the call named no charge we know
    t.integer('companyId').references('companies.id').onDelete('CASCADE');
    t.integer('invoiceId').references('invoices.id').onDelete('SET NULL');
    t.integer('userId').references('users.id').onDelete('SET NULL');
    // paid, paid_manually, webhook_refused …
    t.string('kind', 30).notNullable();
    t.jsonb('detail').notNullable().defaultTo('{}');
    t.timestamp('createdAt', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['companyId', 'createdAt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('billingEvents');
  await knex.schema.dropTable('billingCharges');
  await knex.schema.dropTable('invoices');
}
