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
 * gateway, least recently checked first (a page of 200 a minute reaches every charge in turn), and a paid
 * one is confirmed as a webhook would (a webhook Efí gave up on is not a lost payment). A charge past its
 * expiry by an hour closes as EXPIRADA only when the gateway answers that it isn't paid; a gateway that
 * doesn't answer leaves it ATIVA for the next run.
 */
export async function chargePoll(ctx: BillingContext): Promise<number> {
  const { gateway } = billingState(ctx);
  if (!gateway?.charges) return 0;
  const { knex } = ctx.db;
  const waiting = (await knex('billingCharges')
    .where('status', 'ATIVA')
    .orderBy([{ column: 'updatedAt' }, { column: 'id' }])
    .limit(200)
    .select('id', 'txid', 'expiresAt')) as Array<{ id: number; txid: string; expiresAt: Date }>;
  const expiredBefore = Date.now() - 3_600_000;
  let confirmed = 0;
  for (const { id, txid, expiresAt } of waiting) {
    // checked now, whatever the outcome: the next run starts with the others
    await knex('billingCharges').where({ id, status: 'ATIVA' }).update({ updatedAt: knex.fn.now() });
    try {
      const queried = await gateway.queryCharge(txid);
      if (queried.status === 'CONCLUIDA') {
        await confirmCharge(ctx, txid, 'poll');
        confirmed += 1;
      } else if (new Date(expiresAt).getTime() < expiredBefore) {
        await knex('billingCharges').where({ id, status: 'ATIVA' }).update({ status: 'EXPIRADA', updatedAt: knex.fn.now() });
      }
    } catch (error) {
      // refusals are logged where they happen; an unreachable gateway is tried again next minute
      if (!(error instanceof AppError)) ctx.log.warn({ txid, err: (error as Error).message }, 'charge poll failed');
    }
  }
  return confirmed;
}
