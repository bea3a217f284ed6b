import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../shared/pricing';
import { type BillingKit, billingKit } from '../testing/kit';
import { seedBillingDemo } from './demo';

/** The demo: Acme has three paid months and its due date's invoice open, which the demo's Pix page pays. */
let kit: BillingKit;
beforeAll(async () => {
  kit = await billingKit({ demoData: true });
});
afterAll(() => kit?.close());

describe('the billing demo', () => {
  it("gives Acme three paid invoices and its due date's open one, once, and paying it renews Acme", async () => {
    const listed = async () =>
      (await kit.api(kit.admin, 'GET', '/invoices')).body.invoices as Array<{ id: number; status: string }>;
    expect((await listed()).map((invoice) => invoice.status)).toEqual(['Aberto', 'Pago', 'Pago', 'Pago']);
    await seedBillingDemo(kit.ctx, { companies: kit.t.demo.companies });
    expect(await listed()).toHaveLength(4);
    expect((await kit.api(kit.lite, 'GET', '/invoices')).body.invoices).toEqual([]);

    const open = (await listed())[0] as { id: number };
    const due = (await kit.knex('companies').where({ id: kit.acmeId }).first('dueDate')).dueDate as string;
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', {
      firstName: 'Ana',
      zipcode: '12345678000199',
      invoiceId: open.id,
    });
    expect(checkout.body.valor).toEqual({ original: '199.90' });
    const paid = await kit.api(kit.admin, 'POST', `/billing/demo/charges/${checkout.body.txid}/pay`);
    expect(paid.body).toMatchObject({ status: 'CONCLUIDA', dueDate: addMonths(due, 1) });
    expect((await listed()).every((invoice) => invoice.status === 'Pago')).toBe(true);
  });
});
