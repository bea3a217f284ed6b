import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingKit, billingKit, dayFromToday } from '../testing/kit';
import { generateDueInvoices } from './invoices.service';
import { invoiceRun } from './jobs';
import { today } from './payments.service';

/**
 * Invoices (docs/billing.md "Invoices"): the scheduled run makes one invoice per company and period
 * however many runs race, companies read only their own, the super user reads all, makes one-off
 * invoices and marks invoices paid by hand — logged with who and when.
 */
let kit: BillingKit;
beforeAll(async () => {
  kit = await billingKit();
});
afterAll(() => kit?.close());

/** A company on a plan of its own (price `amount`), due `dueInDays` from today. */
async function company(name: string, dueInDays: number, amount = 99.9) {
  const [plan] = await kit
    .knex('plans')
    .insert({ name: `Plano ${name}`, users: 4, connections: 2, amount })
    .returning('id');
  const [row] = await kit
    .knex('companies')
    .insert({
      name,
      email: `${name.toLowerCase()}@billing.test`,
      planId: plan.id,
      dueDate: dayFromToday(dueInDays),
      status: true,
    })
    .returning('id');
  return row.id as number;
}

describe('the invoice run', () => {
  it('makes one invoice per company and period, whatever number of runs race (and again later)', async () => {
    const soon = await company('Soon', 5);
    const late = await company('Late', -3);
    const far = await company('Far', 40);
    const free = await company('Free', 2, 0);
    // eight runs at once, each on its own pooled connection, then one more as a restarted worker would
    await Promise.all(Array.from({ length: 8 }, () => generateDueInvoices(kit.knex, { today: today(), leadDays: 10 })));
    await invoiceRun(kit.ctx);
    const rows = await kit.knex('invoices').whereIn('companyId', [soon, late, far, free]).orderBy('companyId');
    expect(rows.map((row) => [row.companyId, row.period, row.value, row.status, row.kind])).toEqual([
      [soon, dayFromToday(5), '99.90', 'open', 'recurring'],
      [late, dayFromToday(-3), '99.90', 'open', 'recurring'],
    ]);
    expect(rows[0]).toMatchObject({ detail: 'Plano Soon', users: 4, connections: 2, dueDate: dayFromToday(5) });
  });

  it("uses the company's own value over its plan's", async () => {
    const id = await company('Valued', 1);
    await kit.knex('companies').where({ id }).update({ value: 150 });
    await invoiceRun(kit.ctx);
    expect(await kit.knex('invoices').where({ companyId: id }).pluck('value')).toEqual(['150.00']);
  });

  it('runs as the scheduled job through the queue', async () => {
    const id = await company('Queued', 3);
    const enqueued = await kit.ctx.jobs.enqueue('invoice-run', {}, { companyId: undefined });
    expect(enqueued).not.toBeNull();
    await expect
      .poll(() => kit.knex('invoices').where({ companyId: id }).count('id as n').first(), { timeout: 15_000 })
      .toEqual({ n: 1 });
  });
});

describe('the invoice routes', () => {
  it("lists the company's own invoices, searched and paged; profile users are refused", async () => {
    const rows = Array.from({ length: 23 }, (_, i) => ({
      companyId: kit.acmeId,
      detail: i === 7 ? 'Serviço avulso especial' : `Mensalidade ${i}`,
      kind: 'oneoff',
      dueDate: dayFromToday(-i - 40),
      value: '10.00',
      users: 1,
      connections: 1,
      status: i === 0 ? 'paid' : 'open',
    }));
    await kit.knex('invoices').insert(rows);
    await kit.knex('invoices').insert({ ...rows[1], companyId: kit.liteId, detail: 'Da Lite' });

    const first = await kit.api(kit.admin, 'GET', '/invoices');
    expect(first.status).toBe(200);
    expect(first.body.invoices).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.invoices.every((invoice: { companyId: number }) => invoice.companyId === kit.acmeId)).toBe(true);
    const second = await kit.api(kit.admin, 'GET', '/invoices?pageNumber=2');
    expect(second.body.hasMore).toBe(false);
    const all = [...first.body.invoices, ...second.body.invoices];
    expect(all.map((invoice: { detail: string }) => invoice.detail)).not.toContain('Da Lite');
    const paid = all.find((invoice: { detail: string }) => invoice.detail === 'Mensalidade 0');
    expect(paid).toMatchObject({ status: 'Pago', linkInvoice: null, value: '10.00' });
    const open = all.find((invoice: { detail: string }) => invoice.detail === 'Mensalidade 1');
    expect(open).toMatchObject({ status: 'Aberto', linkInvoice: `/subscription?invoiceId=${open.id}` });

    const found = await kit.api(kit.admin, 'GET', `/invoices?searchParam=${encodeURIComponent('avulso')}`);
    expect(found.body.invoices.map((invoice: { detail: string }) => invoice.detail)).toEqual(['Serviço avulso especial']);

    expect((await kit.api(kit.agent, 'GET', '/invoices')).status).toBe(403);
    const liteId = (await kit.api(kit.lite, 'GET', '/invoices')).body.invoices.map(
      (invoice: { companyId: number }) => invoice.companyId,
    );
    expect(new Set(liteId)).toEqual(new Set([kit.liteId]));
    expect((await kit.api(kit.lite, 'GET', `/invoices/${open.id}`)).body).toEqual({ error: 'ERR_NO_INVOICE_FOUND' });
  });

  it("shows the super user every company's invoices", async () => {
    const found = await kit.api(kit.superUser, 'GET', '/invoices?searchParam=Lite');
    expect(found.status).toBe(200);
    expect(found.body.invoices.length).toBeGreaterThan(0);
    expect(found.body.invoices.every((invoice: { companyName: string }) => invoice.companyName === 'Lite')).toBe(true);
  });

  it('lets only the super user make a one-off invoice and mark invoices paid, logged with who and when', async () => {
    const body = { companyId: kit.liteId, detail: 'Implantação', value: 300, dueDate: dayFromToday(7) };
    expect((await kit.api(kit.admin, 'POST', '/invoices', body)).status).toBe(403);
    expect((await kit.api(kit.superUser, 'POST', '/invoices', { ...body, companyId: 999_999 })).body).toEqual({
      error: 'ERR_NO_COMPANY_FOUND',
    });
    expect((await kit.api(kit.superUser, 'POST', '/invoices', { ...body, value: -1 })).status).toBe(400);
    const created = await kit.api(kit.superUser, 'POST', '/invoices', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      companyId: kit.liteId,
      kind: 'oneoff',
      value: '300.00',
      status: 'Aberto',
      companyName: 'Lite',
    });

    const dueBefore = (await kit.knex('companies').where({ id: kit.liteId }).first('dueDate')).dueDate;
    expect((await kit.api(kit.lite, 'POST', `/invoices/${created.body.id}/pay`)).status).toBe(403);
    const paid = await kit.api(kit.superUser, 'POST', `/invoices/${created.body.id}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'Pago', paidWith: 'manual' });
    // a one-off invoice renews nothing
    expect((await kit.knex('companies').where({ id: kit.liteId }).first('dueDate')).dueDate).toBe(dueBefore);
    const log = await kit.knex('billingEvents').where({ invoiceId: created.body.id, kind: 'paid_manually' });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ userId: kit.superUser.user.id, companyId: kit.liteId });
    expect(log[0].createdAt).toBeInstanceOf(Date);
    expect((await kit.api(kit.superUser, 'POST', `/invoices/${created.body.id}/pay`)).body).toEqual({
      error: 'ERR_INVOICE_ALREADY_PAID',
    });
  });

  it("moves the company's due date by its recurrence when its period's invoice is paid by hand", async () => {
    const id = await company('Manual', 4);
    await kit.knex('companies').where({ id }).update({ recurrence: 'TRIMESTRAL' });
    await invoiceRun(kit.ctx);
    const invoice = await kit.knex('invoices').where({ companyId: id }).first('id');
    await kit.api(kit.superUser, 'POST', `/invoices/${invoice.id}/pay`);
    const due = dayFromToday(4);
    const [y, m, d] = due.split('-').map(Number) as [number, number, number];
    const expected = new Date(Date.UTC(y, m - 1 + 3, Math.min(d, new Date(Date.UTC(y, m + 2, 0)).getUTCDate())))
      .toISOString()
      .slice(0, 10);
    expect((await kit.knex('companies').where({ id }).first('dueDate')).dueDate).toBe(expected);
  });
});
