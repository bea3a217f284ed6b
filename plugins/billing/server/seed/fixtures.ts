import type { PluginDefinition } from '@balcao/plugin-sdk/server';
import { newTxid } from '../services/payments.service';
import { billingState } from '../services/state';

/**
 * The walkers' rows of company A: an open one-off invoice (its detail carries the marker) and a waiting
 * Pix charge of it, opened at the configured gateway when it charges (so the demo's pay route has it).
 */
export const seedBillingFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  ctx,
  companyA,
  marker,
}) => {
  const { knex } = ctx.db;
  const [invoice] = await knex('invoices')
    .insert({
      companyId: companyA.id,
      detail: `Fatura ${marker}`,
      kind: 'oneoff',
      dueDate: '2030-01-10',
      value: '10.00',
      users: 1,
      connections: 1,
      status: 'open',
    })
    .returning('id');
  const txid = newTxid();
  const gateway = billingState(ctx).gateway;
  const created = gateway?.charges
    ? await gateway.createCharge({
        txid,
        amount: '10.00',
        expiresInSeconds: 3600,
        payer: { name: marker, document: '12345678909' },
        description: marker,
      })
    : { copyPaste: `fixture ${marker}`, qrImage: null };
  await knex('billingCharges').insert({
    companyId: companyA.id,
    invoiceId: invoice.id,
    gateway: gateway?.name ?? 'none',
    txid,
    amount: '10.00',
    copyPaste: created.copyPaste,
    qrImage: created.qrImage,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { invoice: invoice.id as number, charge: txid };
};
