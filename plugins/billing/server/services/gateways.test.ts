import { afterEach, describe, expect, it } from 'vitest';
import { gatewayProblems } from '../config';
import { type BillingKit, billingKit } from '../testing/kit';

/**
 * Billing per BILLING_GATEWAY (docs/billing.md "Configuration"): `manual` opens no charge and leaves the
 * super user to mark invoices paid; `off` answers every billing route 404 ERR_BILLING_DISABLED; `efi`
 * refuses to start without its settings.
 */
let kit: BillingKit | null = null;
const before = process.env.BILLING_GATEWAY;
afterEach(async () => {
  await kit?.close();
  kit = null;
  if (before === undefined) delete process.env.BILLING_GATEWAY;
  else process.env.BILLING_GATEWAY = before;
});

describe('the configured gateway', () => {
  it('manual: no checkout, the super user marks the invoice paid', async () => {
    process.env.BILLING_GATEWAY = 'manual';
    kit = await billingKit();
    expect((await kit.api(kit.admin, 'GET', '/subscription')).body).toMatchObject({ payable: false, demoPayments: false });
    const [invoice] = await kit
      .knex('invoices')
      .insert({
        companyId: kit.acmeId,
        detail: 'Mensal',
        kind: 'oneoff',
        dueDate: '2030-01-01',
        value: '10.00',
        users: 1,
        connections: 1,
      })
      .returning('id');
    const checkout = await kit.api(kit.admin, 'POST', '/subscription', {
      firstName: 'Ana',
      zipcode: '12345678909',
      invoiceId: invoice.id,
    });
    expect(checkout).toEqual({ status: 409, body: { error: 'ERR_BILLING_MANUAL_GATEWAY' } });
    const webhook = await kit.api(null, 'POST', '/billing/webhook/efi?hmac=whatever-it-is-here', {
      pix: [{ txid: 'A'.repeat(30) }],
    });
    expect(webhook).toEqual({ status: 401, body: { error: 'ERR_BILLING_WEBHOOK_SIGNATURE' } });
    expect((await kit.api(kit.superUser, 'POST', `/invoices/${invoice.id}/pay`)).body).toMatchObject({
      status: 'Pago',
      paidWith: 'manual',
    });
  });

  it('off: every billing route answers 404 ERR_BILLING_DISABLED', async () => {
    process.env.BILLING_GATEWAY = 'off';
    kit = await billingKit();
    for (const [method, url] of [
      ['GET', '/invoices'],
      ['GET', '/subscription'],
    ] as const) {
      expect(await kit.api(kit.admin, method, url)).toEqual({ status: 404, body: { error: 'ERR_BILLING_DISABLED' } });
    }
    expect(
      (await kit.api(kit.admin, 'POST', '/subscription', { firstName: 'Ana', zipcode: '12345678909', plan: { id: 1 } })).status,
    ).toBe(404);
    // and the plugin list leaves billing out, so its menu entries (Financeiro, Assinatura) don't show
    const listing = await kit.t.inject({ method: 'GET', url: '/api/plugins', token: kit.admin.token });
    expect(listing.statusCode).toBe(200);
    expect(listing.json().plugins.map((plugin: { id: string }) => plugin.id)).not.toContain('billing');
  });

  it('manual and the other gateways: the plugin list names billing', async () => {
    process.env.BILLING_GATEWAY = 'manual';
    kit = await billingKit();
    const listing = await kit.t.inject({ method: 'GET', url: '/api/plugins', token: kit.admin.token });
    expect(listing.json().plugins.map((plugin: { id: string }) => plugin.id)).toContain('billing');
    // the demo's pay route exists only with the stand-in gateway
    const demoPay = await kit.api(kit.admin, 'POST', '/billing/demo/charges/ANYTXID0000000000000000001/pay');
    expect(demoPay).toEqual({ status: 404, body: { error: 'ERR_NOT_FOUND' } });
  });

  it('efi-standin: refused in production, where any admin could pay through the demo route', () => {
    const standIn = { BILLING_GATEWAY: 'efi-standin' } as Parameters<typeof gatewayProblems>[0];
    expect(gatewayProblems(standIn, 'production')).toEqual([
      'BILLING_GATEWAY=efi-standin is for the demo and tests, not production',
    ]);
    expect(gatewayProblems(standIn, 'development')).toEqual([]);
    expect(gatewayProblems({ ...standIn, BILLING_GATEWAY: 'manual' }, 'production')).toEqual([]);
  });

  it('efi: refuses to start without its credentials, naming them', async () => {
    process.env.BILLING_GATEWAY = 'efi';
    const refusal = billingKit();
    await expect(refusal).rejects.toThrow(/Invalid configuration/);
    const message = await refusal.catch((error: Error) => error.message);
    for (const name of ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_PIX_KEY', 'EFI_CERTIFICATE', 'EFI_WEBHOOK_SECRET']) {
      expect(message).toContain(`${name} is required when BILLING_GATEWAY=efi (billing)`);
    }
  });
});
