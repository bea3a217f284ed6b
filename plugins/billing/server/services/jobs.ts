import { AppError } from '@balcao/plugin-sdk/server';
import type { BillingContext } from '../config';
import { generateDueInvoices } from './invoices.service';
import { confirmCharge, today } from './payments.service';
import { billingState } from './state';

/**
 * The scheduled invoice run (every hour, one worker): the invoices of every company due within
 * BILLING_INVOICE_LEAD_DAYS. Safe to run anywhere, any number of times (see generateDueInvoices).
 */
export async function invoiceRun(ctx: BillingContext): Promise<number> {
  if (billingState(ctx).name === 'off') return 0;
  const made = await generateDueInvoices(ctx.db.knex, { today: today(), leadDays: ctx.config.BILLING_INVOICE_LEAD_DAYS });
  if (made.length > 0) ctx.log.info({ invoices: made.length }, 'invoices made ahead of due dates');
  return made.length;
}

/**
 * The safety net behind the webhook (every minute, one worker): charges still waiting are queried at the
 * gateway, and a paid one is confirmed as a webhook would (a webhook Efí gave up on is not a lost
 * payment). Charges past their expiry by an hour are closed as EXPIRADA.
 */
export async function chargePoll(ctx: BillingContext): Promise<number> {
  const { gateway } = billingState(ctx);
  if (!gateway?.charges) return 0;
  const { knex } = ctx.db;
  await knex('billingCharges')
    .where('status', 'ATIVA')
    .andWhere('expiresAt', '<', new Date(Date.now() - 3_600_000))
    .update({ status: 'EXPIRADA', updatedAt: knex.fn.now() });
  const waiting = (await knex('billingCharges').where('status', 'ATIVA').orderBy('id').limit(200).select('txid')) as Array<{
    txid: string;
  }>;
  let confirmed = 0;
  for (const { txid } of waiting) {
    try {
      const queried = await gateway.queryCharge(txid);
      if (queried.status !== 'CONCLUIDA') continue;
      await confirmCharge(ctx, txid, 'poll');
      confirmed += 1;
    } catch (error) {
      // refusals are logged where they happen; an unreachable gateway is tried again next minute
      if (!(error instanceof AppError)) ctx.log.warn({ txid, err: (error as Error).message }, 'charge poll failed');
    }
  }
  return confirmed;
}
