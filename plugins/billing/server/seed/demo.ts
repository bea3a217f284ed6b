import type { PluginContext } from '@balcao/plugin-sdk/server';
import { addMonths, toMoney } from '../../shared/pricing';

/**
 * Acme's invoices (idempotent, by period): three past months paid by Pix and the invoice of its current
 * due date open — the one a newcomer pays at /financeiro, simulating the Pix payment on the demo page
 * (docs/billing.md "Demo"), which moves Acme's due date a month ahead.
 */
export async function seedBillingDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  const { knex } = ctx.db;
  const company = await knex('companies as c')
    .join('plans as p', 'p.id', 'c.planId')
    .where('c.id', companyId)
    .first('c.dueDate', 'p.name', 'p.amount', 'p.users', 'p.connections');
  if (!company || Number(company.amount) <= 0) return;
  const thisMonth = new Date().toISOString().slice(0, 10);
  const invoice = (period: string, paid: boolean) => ({
    companyId,
    detail: company.name,
    kind: 'recurring',
    period,
    dueDate: period,
    value: toMoney(company.amount),
    users: company.users,
    connections: company.connections,
    status: paid ? 'paid' : 'open',
    paidAt: paid ? new Date(`${period}T13:20:00Z`) : null,
    paidWith: paid ? 'pix' : null,
  });
  const rows = [
    invoice(addMonths(thisMonth, -3), true),
    invoice(addMonths(thisMonth, -2), true),
    invoice(addMonths(thisMonth, -1), true),
    invoice(String(company.dueDate).slice(0, 10), false),
  ];
  await knex.raw('? ON CONFLICT (company_id, period) WHERE period IS NOT NULL DO NOTHING', [knex('invoices').insert(rows)]);
}
