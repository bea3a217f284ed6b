import { randomBytes } from 'node:crypto';
import { AppError, type PluginContext, type RequestSession } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { nextDueDate, sameAmount } from '../../shared/pricing';
import { GatewayError } from './gateway';
import { findInvoice, type InvoiceJson, type InvoiceRow, invoiceJson } from './invoices.service';
import { billingState } from './state';

/** The event a company's browsers get when one of its invoices is paid (docs/product/administration.md). */
export const paymentEvent = (companyId: number) => `company-${companyId}-payment`;

/** Writes one line of the payments log (billingEvents); never inside a transaction that may roll back. */
export async function logBillingEvent(
  knex: Knex,
  entry: {
    kind: string;
    companyId?: number | null;
    invoiceId?: number | null;
    userId?: number | null;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await knex('billingEvents').insert({
    kind: entry.kind,
    companyId: entry.companyId ?? null,
    invoiceId: entry.invoiceId ?? null,
    userId: entry.userId ?? null,
    detail: JSON.stringify(entry.detail ?? {}),
  });
}

/** Today as the calendar day due dates are compared with (the server's zone, as the core's check). */
export function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const day = (value: Date | string) => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

interface Paid {
  companyId: number;
  invoiceId: number;
  dueDate: string;
}

/**
 * Marks an open invoice paid inside `trx` and renews the company (docs/billing.md "Payment"): a
 * recurring or subscription invoice moves the due date by the company's recurrence, from the due date or
 * from today when it has passed; a subscription invoice also moves the company to the plan and counts it
 * was bought for. A one-off invoice renews nothing. Answers null when the invoice was no longer open
 * (someone else paid it first): then nothing changes.
 */
async function payInvoiceIn(
  trx: Knex.Transaction,
  invoiceId: number,
  paid: { with: 'pix' | 'manual'; by: number | null },
): Promise<Paid | null> {
  const [invoice] = (await trx('invoices')
    .where({ id: invoiceId, status: 'open' })
    .update({ status: 'paid', paidAt: trx.fn.now(), paidWith: paid.with, paidBy: paid.by, updatedAt: trx.fn.now() })
    .returning('*')) as InvoiceRow[];
  if (!invoice) return null;
  const company = await trx('companies').where('id', invoice.companyId).forUpdate().first('id', 'dueDate', 'recurrence');
  let dueDate = day(company.dueDate);
  if (invoice.kind !== 'oneoff') {
    const from = dueDate < today() ? today() : dueDate;
    dueDate = nextDueDate(from, company.recurrence);
    const changes: Record<string, unknown> = { dueDate, updatedAt: trx.fn.now() };
    if (invoice.kind === 'subscription') {
      Object.assign(changes, { numberAttendants: invoice.users, numberConections: invoice.connections, value: invoice.value });
      changes.planId = invoice.planId ?? (await customPlanFor(trx, invoice));
    }
    await trx('companies').where('id', invoice.companyId).update(changes);
  }
  return { companyId: invoice.companyId, invoiceId: invoice.id, dueDate };
}

/**
 * The private plan a paid custom subscription moves the company to: its current plan's flags with the
 * bought users and connections, so the limits the administration enforces on create follow what was
 * paid. One per company and counts (found again by name when bought again).
 */
async function customPlanFor(trx: Knex.Transaction, invoice: InvoiceRow): Promise<number> {
  const company = await trx('companies').where('id', invoice.companyId).first('planId');
  const base = (await trx('plans').where('id', company.planId).first()) as Record<string, unknown>;
  const { id: _id, name: _name, createdAt: _createdAt, updatedAt: _updatedAt, ...flags } = base;
  const name = `Personalizado #${invoice.companyId} (${invoice.users}/${invoice.connections})`;
  const [plan] = await trx('plans')
    .insert({
      ...flags,
      pluginFlags: JSON.stringify(base.pluginFlags ?? {}),
      name,
      users: invoice.users,
      connections: invoice.connections,
      amount: invoice.value,
      isPublic: false,
    })
    .onConflict('name')
    .merge({ amount: invoice.value, updatedAt: trx.fn.now() })
    .returning('id');
  return plan.id as number;
}

/** After a payment is committed: every process drops the company's cached due date, its browsers hear CONCLUIDA. */
async function announcePaid(ctx: PluginContext, paid: Paid): Promise<void> {
  await ctx.session.invalidateCompany(paid.companyId);
  ctx.realtime.emit(paid.companyId, paymentEvent(paid.companyId), {
    action: 'CONCLUIDA',
    company: { id: paid.companyId, dueDate: paid.dueDate },
    invoiceId: paid.invoiceId,
  });
  await ctx.events.publish('company.updated', { companyId: paid.companyId });
}

/** `POST /invoices/:id/pay` (super user, the manual gateway's way): paid now, by the caller, logged. */
export async function markPaidManually(ctx: PluginContext, session: RequestSession, invoiceId: number): Promise<InvoiceJson> {
  const { knex } = ctx.db;
  await findInvoice(knex, session, invoiceId);
  const paid = await knex.transaction((trx) => payInvoiceIn(trx, invoiceId, { with: 'manual', by: session.userId }));
  if (!paid) throw new AppError('ERR_INVOICE_ALREADY_PAID');
  await logBillingEvent(knex, {
    kind: 'paid_manually',
    companyId: paid.companyId,
    invoiceId,
    userId: session.userId,
    detail: { dueDate: paid.dueDate },
  });
  await announcePaid(ctx, paid);
  return invoiceJson(await findInvoice(knex, session, invoiceId));
}

/** A refusal to confirm a charge, logged with what was asked. */
async function refuse(
  ctx: PluginContext,
  code:
    | 'ERR_BILLING_WEBHOOK_UNKNOWN_TXID'
    | 'ERR_BILLING_WEBHOOK_REPLAY'
    | 'ERR_BILLING_AMOUNT_MISMATCH'
    | 'ERR_BILLING_NOT_PAID',
  context: { txid: string; source: string; companyId?: number; invoiceId?: number; detail?: Record<string, unknown> },
): Promise<never> {
  await logBillingEvent(ctx.db.knex, {
    kind: 'confirmation_refused',
    companyId: context.companyId ?? null,
    invoiceId: context.invoiceId ?? null,
    detail: { reason: code, txid: context.txid, source: context.source, ...context.detail },
  });
  ctx.log.warn({ txid: context.txid, reason: code, source: context.source }, 'payment confirmation refused');
  throw new AppError(code);
}

/** The charge states a gateway's CONCLUIDA can still confirm. */
const CONFIRMABLE = ['ATIVA', 'EXPIRADA'];

interface ChargeRow {
  id: number;
  companyId: number;
  invoiceId: number;
  txid: string;
  amount: string;
  status: string;
}

/**
 * Confirms a charge's payment (docs/billing.md "Payment"): whatever told us (a webhook, the poll, the
 * browser), the charge is queried at the gateway, and it counts only when the gateway says CONCLUIDA
 * and both the charge's amount and the transfers received equal what we charged. The charge row is
 * locked while it turns CONCLUIDA, so the same news three times pays once; a charge already confirmed
 * is a replay. An EXPIRADA charge still counts when the gateway says it was paid (a payment arriving
 * after the poll closed it is money received). Refusals are logged and change nothing.
 */
export async function confirmCharge(
  ctx: PluginContext,
  txid: string,
  source: string,
): Promise<{ invoiceId: number; dueDate: string }> {
  const { knex } = ctx.db;
  const charge = (await knex('billingCharges').where({ txid }).first()) as ChargeRow | undefined;
  if (!charge) return refuse(ctx, 'ERR_BILLING_WEBHOOK_UNKNOWN_TXID', { txid, source });
  const about = { txid, source, companyId: charge.companyId, invoiceId: charge.invoiceId };
  if (!CONFIRMABLE.includes(charge.status)) return refuse(ctx, 'ERR_BILLING_WEBHOOK_REPLAY', about);
  const gateway = billingState(ctx).gateway;
  if (!gateway?.charges) throw new AppError('ERR_BILLING_MANUAL_GATEWAY');
  let queried: Awaited<ReturnType<typeof gateway.queryCharge>>;
  try {
    queried = await gateway.queryCharge(txid);
  } catch (error) {
    if (error instanceof GatewayError) {
      ctx.log.warn({ txid, err: error.message }, 'the gateway did not answer a charge query');
      throw new AppError('ERR_BILLING_GATEWAY_UNAVAILABLE');
    }
    throw error;
  }
  if (queried.status !== 'CONCLUIDA')
    return refuse(ctx, 'ERR_BILLING_NOT_PAID', { ...about, detail: { status: queried.status } });
  const received = queried.payments.reduce((sum, pix) => sum + Math.round(Number(pix.amount) * 100), 0) / 100;
  if (!sameAmount(queried.amount, charge.amount) || !sameAmount(received, charge.amount)) {
    return refuse(ctx, 'ERR_BILLING_AMOUNT_MISMATCH', {
      ...about,
      detail: { charged: charge.amount, gatewayAmount: queried.amount, received: received.toFixed(2) },
    });
  }
  const outcome = await knex.transaction(async (trx) => {
    const locked = (await trx('billingCharges').where({ id: charge.id }).forUpdate().first('status')) as { status: string };
    if (!CONFIRMABLE.includes(locked.status)) return 'replay' as const;
    await trx('billingCharges')
      .where({ id: charge.id })
      .update({
        status: 'CONCLUIDA',
        paidAt: trx.fn.now(),
        endToEndId: queried.payments[0]?.endToEndId ?? null,
        updatedAt: trx.fn.now(),
      });
    return (await payInvoiceIn(trx, charge.invoiceId, { with: 'pix', by: null })) ?? ('invoice_already_paid' as const);
  });
  if (outcome === 'replay') return refuse(ctx, 'ERR_BILLING_WEBHOOK_REPLAY', about);
  if (outcome === 'invoice_already_paid') {
    // a second charge of an invoice paid meanwhile: the money arrived, the renewal happened once already
    await logBillingEvent(knex, {
      kind: 'paid_twice',
      companyId: charge.companyId,
      invoiceId: charge.invoiceId,
      detail: { txid },
    });
    throw new AppError('ERR_INVOICE_ALREADY_PAID');
  }
  await logBillingEvent(knex, {
    kind: 'paid',
    companyId: outcome.companyId,
    invoiceId: outcome.invoiceId,
    detail: { txid, source, amount: charge.amount, dueDate: outcome.dueDate },
  });
  await announcePaid(ctx, outcome);
  return { invoiceId: outcome.invoiceId, dueDate: outcome.dueDate };
}

/** A txid of our own: 32 letters and digits (Efí takes 26 to 35). */
export const newTxid = () =>
  randomBytes(24)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 32)
    .padEnd(32, '0');

export type { InvoiceRow };
