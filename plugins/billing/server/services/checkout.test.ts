import { connectSocket, nextEvent } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMonths } from '../../shared/pricing';
import { type BillingKit, billingKit, dayFromToday } from '../testing/kit';
import { chargePoll, invoiceRun } from './jobs';
import { webhookAddress } from './state';

/**
 * The checkout and the payment (docs/billing.md "Checkout", "Payment"): the server prices every charge
 * (a forged price changes nothing), a payment counts only once the gateway says so when queried, the
 * webhook is idempotent and refuses what doesn't add up, and a paid invoice renews the company — an
 * expired one included, on the same session.
 */
let kit: BillingKit;
let base: string;
let completoPlanId: number;
beforeAll(async () => {
  kit = await billingKit();
  base = await kit.t.listen();
  // the stand-in posts Efí's webhook to this app
  const { standIn, webhookSecret } = kit.state;
  if (!standIn || !webhookSecret) throw new Error('the tests expect the stand-in Efí gateway');
  standIn.webhookUrl = webhookAddress(kit.ctx, base, webhookSecret);
  completoPlanId = (await kit.knex('plans').where({ name: 'Completo' }).first('id')).id;
});
afterAll(() => kit?.close());

const standIn = () => kit.state.standIn as NonNullable<BillingKit['state']['standIn']>;
const payer = { firstName: 'Maria', lastName: 'Silva', zipcode: '123.456.789-09' };
const webhook = (txid: string, hmac = kit.state.webhookSecret) =>
  kit.api(null, 'POST', `/billing/webhook/efi/pix?hmac=${encodeURIComponent(hmac ?? '')}`, {
    pix: [{ endToEndId: 'E00000000202611280000000000000001', txid, valor: '0.01', horario: new Date().toISOString() }],
  });

/** Acme's recurring invoice for its current due date (set `dueInDays` from today), open. */
async function acmeInvoice(dueInDays: number): Promise<number> {
  await kit.knex('invoices').where({ companyId: kit.acmeId, status: 'open' }).del();
  await kit
    .knex('companies')
    .where({ id: kit.acmeId })
    .update({ dueDate: dayFromToday(dueInDays), recurrence: 'MENSAL' });
  await kit.ctx.session.invalidateCompany(kit.acmeId);
  await invoiceRun(kit.ctx);
  const invoice = await kit
    .knex('invoices')
    .where({ companyId: kit.acmeId, period: dayFromToday(dueInDays) })
    .first('id');
  return invoice.id as number;
}

const dueDateOfAcme = async () => (await kit.knex('companies').where({ id: kit.acmeId }).first('dueDate')).dueDate as string;

beforeEach(async () => {
  await kit
    .knex('companies')
    .where({ id: kit.acmeId })
    .update({ dueDate: dayFromToday(365) });
  await kit.ctx.session.invalidateCompany(kit.acmeId);
});

describe('the price', () => {
  it("charges the chosen plan's price whatever price, value or counts the browser sends", async () => {
    const forged = await kit.api(kit.admin, 'POST', '/subscription', {
      ...payer,
      plan: JSON.stringify({ id: completoPlanId, title: 'Completo', price: 0.01, value: 0.01, amount: 0.01 }),
      price: 0.01,
      users: 500,
      connections: 500,
    });
    expect(forged.status).toBe(200);
    expect(forged.body.valor).toEqual({ original: '199.90' });
    expect(forged.body.qrcode.qrcode).toMatch(/^000201/);
    // the gateway was asked for the plan's price, not the browser's
    expect(standIn().charges.get(forged.body.txid)?.amount).toBe('199.90');
    const invoice = await kit.knex('invoices').where({ id: forged.body.invoiceId }).first();
    expect(invoice).toMatchObject({ kind: 'subscription', value: '199.90', users: 20, connections: 10, planId: completoPlanId });
  });

  it('prices the custom plan from its counts (49 for 3 and 3, +11 a user, +20 a connection), never under 3', async () => {
    const custom = await kit.api(kit.admin, 'POST', '/subscription', {
      ...payer,
      plan: { id: 'custom' },
      users: 5,
      connections: 4,
      price: 1,
    });
    expect(custom.status).toBe(200);
    expect(custom.body.valor.original).toBe('91.00');
    const tooFew = await kit.api(kit.admin, 'POST', '/subscription', {
      ...payer,
      plan: { id: 'custom' },
      users: 2,
      connections: 3,
      price: 27,
    });
    expect(tooFew).toEqual({ status: 400, body: { error: 'ERR_BILLING_INVALID_PLAN' } });
    expect((await kit.api(kit.admin, 'POST', '/subscription', { ...payer, plan: 'not json' })).body).toEqual({
      error: 'ERR_BILLING_INVALID_PLAN',
    });
    expect((await kit.api(kit.admin, 'POST', '/subscription', { ...payer, plan: { id: 999_999 } })).body).toEqual({
      error: 'ERR_NO_PLAN_FOUND',
    });
    const [privatePlan] = await kit.knex('plans').insert({ name: 'Privado', amount: 5, isPublic: false }).returning('id');
    expect((await kit.api(kit.admin, 'POST', '/subscription', { ...payer, plan: { id: privatePlan.id } })).body).toEqual({
      error: 'ERR_NO_PLAN_FOUND',
    });
  });

  it("charges an invoice's own value, hands out the same charge again, and refuses a paid invoice", async () => {
    const invoiceId = await acmeInvoice(5);
    const first = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId, price: 0.01 });
    expect(first.body).toMatchObject({ invoiceId, valor: { original: '199.90' }, status: 'ATIVA' });
    const again = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId });
    expect(again.body.txid).toBe(first.body.txid);
    await kit.knex('invoices').where({ id: invoiceId }).update({ status: 'paid' });
    expect((await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId })).body).toEqual({
      error: 'ERR_INVOICE_ALREADY_PAID',
    });
    expect((await kit.api(kit.agent, 'POST', '/subscription', { ...payer, invoiceId })).status).toBe(403);
    expect((await kit.api(kit.admin, 'POST', '/subscription', { firstName: 'Maria', invoiceId })).status).toBe(400);
  });
});

describe('the payer', () => {
  it('refuses a CPF/CNPJ (zipcode) of neither 11 nor 14 digits before it reaches the gateway', async () => {
    const invoiceId = await acmeInvoice(1);
    const calls = standIn().calls.length;
    for (const zipcode of ['123.456.789-012', '12.345.678/0001-9', '1234567890123']) {
      const answer = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, zipcode, invoiceId });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ field: 'body.zipcode' }] });
    }
    expect(standIn().calls.length).toBe(calls);
    expect(
      (await kit.api(kit.admin, 'POST', '/subscription', { ...payer, zipcode: '12.345.678/0001-95', invoiceId })).status,
    ).toBe(200);
  });
});

describe('the payment', () => {
  it('renews once for a webhook received three times, and tells the company’s browsers CONCLUIDA', async () => {
    const invoiceId = await acmeInvoice(6);
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId });
    const socket = await connectSocket(base, kit.acmeId, kit.admin.token);
    try {
      const event = nextEvent<{ action: string; company: { id: number; dueDate: string } }>(
        socket,
        `company-${kit.acmeId}-payment`,
        () => true,
        15_000,
      );
      // the stand-in plays the payer and posts Efí's webhook to our listening app
      expect(await standIn().pay(checkout.body.txid)).toBe(200);
      const renewed = addMonths(dayFromToday(6), 1);
      expect(await event).toEqual({ action: 'CONCLUIDA', company: { id: kit.acmeId, dueDate: renewed }, invoiceId });
      expect(await dueDateOfAcme()).toBe(renewed);

      const replays = await Promise.all([webhook(checkout.body.txid), webhook(checkout.body.txid)]);
      // refused (logged below) yet answered 200, so Efí neither retries nor disables the webhook
      expect(replays).toEqual([
        { status: 200, body: { confirmed: 0 } },
        { status: 200, body: { confirmed: 0 } },
      ]);
      expect(await dueDateOfAcme()).toBe(renewed);
      expect(await kit.knex('invoices').where({ id: invoiceId }).first('status', 'paidWith')).toEqual({
        status: 'paid',
        paidWith: 'pix',
      });
      expect(await kit.knex('billingEvents').where({ invoiceId, kind: 'paid' }).count('id as n').first()).toEqual({ n: 1 });
      expect(await kit.knex('billingEvents').where({ invoiceId, kind: 'confirmation_refused' }).count('id as n').first()).toEqual(
        { n: 2 },
      );
      const status = await kit.api(kit.admin, 'GET', `/subscription/charges/${checkout.body.txid}`);
      expect(status.body).toEqual({ txid: checkout.body.txid, invoiceId, status: 'CONCLUIDA', dueDate: renewed });
    } finally {
      socket.disconnect();
    }
  });

  it('pays once when the same webhook arrives three times at once', async () => {
    const invoiceId = await acmeInvoice(3);
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId });
    standIn().webhookUrl = null;
    try {
      await standIn().pay(checkout.body.txid);
    } finally {
      standIn().webhookUrl = webhookAddress(kit.ctx, base, kit.state.webhookSecret as string);
    }
    const answers = await Promise.all([webhook(checkout.body.txid), webhook(checkout.body.txid), webhook(checkout.body.txid)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.body.confirmed).sort()).toEqual([0, 0, 1]);
    expect(await dueDateOfAcme()).toBe(addMonths(dayFromToday(3), 1));
    expect(await kit.knex('billingEvents').where({ invoiceId, kind: 'paid' }).count('id as n').first()).toEqual({ n: 1 });
  });

  it('refuses and logs a bad signature, an unknown txid, an unpaid charge and a wrong amount, changing nothing', async () => {
    const invoiceId = await acmeInvoice(4);
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId });
    const txid = checkout.body.txid as string;
    const before = await kit.knex('billingEvents').count('id as n').first();

    expect(await webhook(txid, 'not-the-secret-at-all')).toEqual({
      status: 401,
      body: { error: 'ERR_BILLING_WEBHOOK_SIGNATURE' },
    });
    expect((await kit.api(null, 'POST', '/billing/webhook/efi', { pix: [{ txid }] })).status).toBe(401);
    const noneConfirmed = { status: 200, body: { confirmed: 0 } };
    expect(await webhook('UNKNOWNTXID0000000000000000000000')).toEqual(noneConfirmed);
    // a webhook claiming a payment the gateway hasn't received
    expect(await webhook(txid)).toEqual(noneConfirmed);
    // the payer sent less than the invoice
    expect(await standIn().pay(txid, { amount: '1.99' })).toBe(200);
    expect(await webhook(txid)).toEqual(noneConfirmed);

    expect(await kit.knex('invoices').where({ id: invoiceId }).first('status')).toEqual({ status: 'open' });
    expect(await kit.knex('billingCharges').where({ txid }).first('status')).toEqual({ status: 'ATIVA' });
    expect(await dueDateOfAcme()).toBe(dayFromToday(4));
    // the calls without our secret go to the process log only: anyone can make them, a row each would pile up
    const logged = await kit.knex('billingEvents').where('id', '>', 0).orderBy('id', 'desc').limit(4).select('kind', 'detail');
    expect(logged.map((row) => row.detail.reason).reverse()).toEqual([
      'ERR_BILLING_WEBHOOK_UNKNOWN_TXID',
      'ERR_BILLING_NOT_PAID',
      'ERR_BILLING_AMOUNT_MISMATCH',
      'ERR_BILLING_AMOUNT_MISMATCH',
    ]);
    expect(Number((await kit.knex('billingEvents').count('id as n').first())?.n)).toBe(Number(before?.n) + 4);
  });

  it('confirms the paid charges of a webhook batch though others in it are refused', async () => {
    const invoiceId = await acmeInvoice(7);
    const txid = (await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId })).body.txid as string;
    standIn().webhookUrl = null;
    try {
      await standIn().pay(txid);
    } finally {
      standIn().webhookUrl = webhookAddress(kit.ctx, base, kit.state.webhookSecret as string);
    }
    const pix = (id: string) => ({ endToEndId: 'E00000000202611280000000000000002', txid: id, valor: '0.01', horario: '' });
    const batch = await kit.api(
      null,
      'POST',
      `/billing/webhook/efi/pix?hmac=${encodeURIComponent(kit.state.webhookSecret ?? '')}`,
      { pix: [pix('UNKNOWNTXID0000000000000000000000'), pix(txid), pix(txid)] },
    );
    expect(batch).toEqual({ status: 200, body: { confirmed: 1 } });
    expect(await kit.knex('invoices').where({ id: invoiceId }).first('status')).toEqual({ status: 'paid' });
  });

  it('confirms a paid charge whose webhook never came, from the scheduled poll', async () => {
    const invoiceId = await acmeInvoice(2);
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId });
    standIn().webhookUrl = null;
    try {
      await standIn().pay(checkout.body.txid);
    } finally {
      standIn().webhookUrl = webhookAddress(kit.ctx, base, kit.state.webhookSecret as string);
    }
    expect(await chargePoll(kit.ctx)).toBe(1);
    expect(await kit.knex('invoices').where({ id: invoiceId }).first('status')).toEqual({ status: 'paid' });
    expect(await chargePoll(kit.ctx)).toBe(0);
  });

  it('expires a charge only when the gateway says it is unpaid, and still credits one paid after expiry', async () => {
    const invoiceId = await acmeInvoice(8);
    const late = (await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId })).body.txid as string;
    const pastExpiry = { expiresAt: new Date(Date.now() - 2 * 3_600_000) };
    await kit.knex('billingCharges').where({ txid: late }).update(pastExpiry);
    // paid at the gateway after its expiry, its webhook lost: the poll confirms instead of expiring it
    standIn().webhookUrl = null;
    try {
      await standIn().pay(late);
    } finally {
      standIn().webhookUrl = webhookAddress(kit.ctx, base, kit.state.webhookSecret as string);
    }
    expect(await chargePoll(kit.ctx)).toBe(1);
    expect(await kit.knex('billingCharges').where({ txid: late }).first('status')).toEqual({ status: 'CONCLUIDA' });
    expect(await kit.knex('invoices').where({ id: invoiceId }).first('status')).toEqual({ status: 'paid' });

    const nextInvoiceId = await acmeInvoice(9);
    const txid = (await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId: nextInvoiceId })).body.txid as string;
    await kit.knex('billingCharges').where({ txid }).update(pastExpiry);
    // the gateway doesn't answer: nothing is known, the charge stays waiting
    const atGateway = standIn().charges.get(txid);
    standIn().charges.delete(txid);
    try {
      await chargePoll(kit.ctx);
    } finally {
      if (atGateway) standIn().charges.set(txid, atGateway);
    }
    expect(await kit.knex('billingCharges').where({ txid }).first('status')).toEqual({ status: 'ATIVA' });
    // the gateway answers it is unpaid: expired
    await chargePoll(kit.ctx);
    expect(await kit.knex('billingCharges').where({ txid }).first('status')).toEqual({ status: 'EXPIRADA' });
    // paid anyway, and the webhook comes: the money counts
    expect(await standIn().pay(txid)).toBe(200);
    expect(await kit.knex('billingCharges').where({ txid }).first('status')).toEqual({ status: 'CONCLUIDA' });
    expect(await kit.knex('invoices').where({ id: nextInvoiceId }).first('status')).toEqual({ status: 'paid' });
    expect(await webhook(txid)).toEqual({ status: 200, body: { confirmed: 0 } });
  });

  it('polls the least recently checked charges first, so older waiting ones never starve a newer one', async () => {
    const invoiceId = await acmeInvoice(10);
    const waiting = Array.from({ length: 200 }, (_, n) => ({
      companyId: kit.acmeId,
      invoiceId,
      gateway: 'efi',
      txid: `FILLER${String(n).padStart(20, '0')}`,
      amount: '1.00',
      copyPaste: 'x',
      expiresAt: new Date(Date.now() + 3_600_000),
    }));
    await kit.knex('billingCharges').insert(waiting);
    try {
      const txid = (await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId })).body.txid as string;
      standIn().webhookUrl = null;
      try {
        await standIn().pay(txid);
      } finally {
        standIn().webhookUrl = webhookAddress(kit.ctx, base, kit.state.webhookSecret as string);
      }
      // the first run checks the 200 older ones (the gateway knows none of them), the second reaches it
      expect((await chargePoll(kit.ctx)) + (await chargePoll(kit.ctx))).toBe(1);
      expect(await kit.knex('invoices').where({ id: invoiceId }).first('status')).toEqual({ status: 'paid' });
    } finally {
      await kit.knex('billingCharges').whereLike('txid', 'FILLER%').del();
    }
  });

  it('moves a company that paid the custom plan to a private plan of the bought counts, its flags kept', async () => {
    const custom = await kit.api(kit.admin, 'POST', '/subscription', {
      ...payer,
      plan: { id: 'custom' },
      users: 6,
      connections: 4,
    });
    expect(custom.body.valor.original).toBe('102.00');
    await kit.api(kit.admin, 'POST', `/billing/demo/charges/${custom.body.txid}/pay`);
    const company = await kit
      .knex('companies')
      .where({ id: kit.acmeId })
      .first('planId', 'numberAttendants', 'numberConections', 'value');
    expect(company).toMatchObject({ numberAttendants: 6, numberConections: 4, value: '102.00' });
    const plan = await kit.knex('plans').where({ id: company.planId }).first();
    expect(plan).toMatchObject({
      name: `Personalizado #${kit.acmeId} (6/4)`,
      users: 6,
      connections: 4,
      amount: '102.00',
      isPublic: false,
    });
    const completo = await kit.knex('plans').where({ id: completoPlanId }).first();
    expect(plan.useCampaigns).toBe(completo.useCampaigns);
    expect(plan.pluginFlags).toEqual(completo.pluginFlags);
    await kit.knex('companies').where({ id: kit.acmeId }).update({ planId: completoPlanId });
    await kit.ctx.session.invalidateCompany(kit.acmeId);
  });

  it('lets an expired company pay on the session it has, and unlocks it without a new login', async () => {
    const invoiceId = await acmeInvoice(-2);
    // a route an expired company may not use (GET /auth/me is one it may)
    const queues = () => kit.t.inject({ method: 'GET', url: '/api/queue', token: kit.admin.token });
    expect((await queues()).statusCode).toBe(402);
    const subscription = await kit.api(kit.admin, 'GET', '/subscription');
    expect(subscription.body).toMatchObject({
      dueDate: dayFromToday(-2),
      daysLeft: -2,
      billingEmail: expect.any(String),
      payable: true,
    });
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', { ...payer, invoiceId });
    expect(checkout.status).toBe(200);
    const paid = await kit.api(kit.admin, 'POST', `/billing/demo/charges/${checkout.body.txid}/pay`);
    // a due date already past renews from today
    expect(paid.body).toEqual({
      txid: checkout.body.txid,
      invoiceId,
      status: 'CONCLUIDA',
      dueDate: addMonths(dayFromToday(0), 1),
    });
    expect((await queues()).statusCode).toBe(200);
  });
});
