import { AppError, type RequestSession } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { customPlanPrice, toMoney } from '../../shared/pricing';
import type { BillingContext } from '../config';
import { GatewayError } from './gateway';
import { findInvoice, type InvoiceRow } from './invoices.service';
import { newTxid, today } from './payments.service';
import { billingState } from './state';

/** The subscription request (docs/product/administration.md "Entities"); `price` is read and ignored. */
export interface SubscriptionInput {
  firstName: string;
  lastName?: string;
  address2?: string;
  city?: string;
  state?: string;
  zipcode: string;
  country?: string;
  useAddressForPaymentDetails?: boolean;
  nameOnCard?: string;
  cardNumber?: string;
  cvv?: string;
  plan?: unknown;
  price?: unknown;
  users?: number;
  connections?: number;
  invoiceId?: number | null;
}

/** The Pix answer: the spec's `qrcode.qrcode` and `valor.original`, and what the page polls. */
export interface CheckoutAnswer {
  txid: string;
  invoiceId: number;
  status: string;
  expiresAt: string;
  qrcode: { qrcode: string; imagemQrcode: string | null };
  valor: { original: string };
}

/** What the browser's `plan` names: a plan's id, or the custom plan (`custom`, with the counts). */
function chosenPlan(plan: unknown): number | 'custom' | null {
  let value = plan;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const id = (value as { id?: unknown } | null)?.id;
  if (id === 'custom') return 'custom';
  if (typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= 2_147_483_647) return id;
  if (typeof id === 'string' && /^\d{1,9}$/.test(id)) return Number(id);
  return null;
}

/**
 * The invoice a checkout pays, priced by the server: the caller's open invoice when `invoiceId` is
 * given; otherwise a subscription invoice for the chosen plan at its price — or for the custom plan at
 * the custom price of the counts — reusing an open one for the same choice.
 */
async function invoiceToPay(knex: Knex, session: RequestSession, input: SubscriptionInput): Promise<InvoiceRow> {
  if (input.invoiceId) {
    const invoice = await findInvoice(knex, { ...session, super: false }, input.invoiceId);
    if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
    return invoice;
  }
  const choice = chosenPlan(input.plan);
  if (choice === null) throw new AppError('ERR_BILLING_INVALID_PLAN');
  let terms: { planId: number | null; detail: string; users: number; connections: number; value: string };
  if (choice === 'custom') {
    const users = input.users ?? 0;
    const connections = input.connections ?? 0;
    const price = customPlanPrice(users, connections);
    if (price === null) throw new AppError('ERR_BILLING_INVALID_PLAN');
    terms = { planId: null, detail: `Plano personalizado (${users}/${connections})`, users, connections, value: toMoney(price) };
  } else {
    const company = await knex('companies').where('id', session.companyId).first('planId');
    // a public plan, or the one the company is on (a private plan the super user gave it)
    const plan = await knex('plans')
      .where('id', choice)
      .andWhere((q) => q.where('isPublic', true).orWhere('id', company?.planId ?? 0))
      .first('id', 'name', 'users', 'connections', 'amount');
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
    if (Number(plan.amount) <= 0) throw new AppError('ERR_BILLING_INVALID_PLAN');
    terms = { planId: plan.id, detail: plan.name, users: plan.users, connections: plan.connections, value: toMoney(plan.amount) };
  }
  const same = (await knex('invoices')
    .where({
      companyId: session.companyId,
      kind: 'subscription',
      status: 'open',
      users: terms.users,
      connections: terms.connections,
    })
    .andWhere('value', terms.value)
    .andWhere((q) => (terms.planId === null ? q.whereNull('planId') : q.where('planId', terms.planId)))
    .first()) as InvoiceRow | undefined;
  if (same) return same;
  const [created] = (await knex('invoices')
    .insert({ companyId: session.companyId, kind: 'subscription', dueDate: today(), status: 'open', ...terms })
    .returning('*')) as InvoiceRow[];
  return created as InvoiceRow;
}

/**
 * `POST /subscription` (docs/billing.md "Checkout"): the invoice to pay, then a Pix charge of exactly
 * its value at the gateway — an unexpired charge of the same invoice and amount is handed out again.
 */
export async function startCheckout(
  ctx: BillingContext,
  session: RequestSession,
  input: SubscriptionInput,
): Promise<CheckoutAnswer> {
  const { knex } = ctx.db;
  const gateway = billingState(ctx).gateway;
  if (!gateway?.charges) throw new AppError('ERR_BILLING_MANUAL_GATEWAY');
  // the gateway takes a CPF (11 digits) or a CNPJ (14) and refuses anything else with a 502-worthy answer
  const documentDigits = input.zipcode.replace(/\D/g, '').length;
  if (documentDigits !== 11 && documentDigits !== 14) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ field: 'body.zipcode', message: 'must be a CPF (11 digits) or a CNPJ (14)' }],
    });
  }
  const invoice = await invoiceToPay(knex, session, input);
  const answer = (charge: {
    txid: string;
    status: string;
    expiresAt: Date;
    copyPaste: string;
    qrImage: string | null;
    amount: string;
  }) => ({
    txid: charge.txid,
    invoiceId: invoice.id,
    status: charge.status,
    expiresAt: new Date(charge.expiresAt).toISOString(),
    qrcode: { qrcode: charge.copyPaste, imagemQrcode: charge.qrImage },
    valor: { original: toMoney(charge.amount) },
  });
  const open = await knex('billingCharges')
    .where({ companyId: session.companyId, invoiceId: invoice.id, status: 'ATIVA', amount: invoice.value })
    .andWhere('expiresAt', '>', new Date(Date.now() + 5 * 60_000))
    .orderBy('id', 'desc')
    .first();
  if (open) return answer(open);

  const txid = newTxid();
  const amount = toMoney(invoice.value);
  const expiresInSeconds = ctx.config.BILLING_PIX_EXPIRATION_SECONDS;
  let created: Awaited<ReturnType<typeof gateway.createCharge>>;
  try {
    created = await gateway.createCharge({
      txid,
      amount,
      expiresInSeconds,
      payer: { name: [input.firstName, input.lastName].filter(Boolean).join(' '), document: input.zipcode },
      description: `${invoice.detail} #${invoice.id}`,
    });
  } catch (error) {
    if (error instanceof GatewayError) {
      ctx.log.warn({ invoiceId: invoice.id, err: error.message }, 'the gateway refused a charge');
      throw new AppError('ERR_BILLING_GATEWAY_UNAVAILABLE');
    }
    throw error;
  }
  const [charge] = await knex('billingCharges')
    .insert({
      companyId: session.companyId,
      invoiceId: invoice.id,
      gateway: gateway.name,
      txid,
      amount,
      status: 'ATIVA',
      copyPaste: created.copyPaste,
      qrImage: created.qrImage,
      expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
    })
    .returning('*');
  return answer(charge);
}

/** `GET /subscription/charges/:txid`: a charge of the caller's company and its state. */
export async function chargeStatus(knex: Knex, session: RequestSession, txid: string) {
  const charge = await knex('billingCharges').where({ txid, companyId: session.companyId }).first();
  if (!charge) throw new AppError('ERR_NO_CHARGE_FOUND');
  const company = await knex('companies').where('id', session.companyId).first('dueDate');
  const due = company.dueDate instanceof Date ? company.dueDate.toISOString().slice(0, 10) : String(company.dueDate).slice(0, 10);
  return { txid, invoiceId: charge.invoiceId as number, status: charge.status as string, dueDate: due };
}

/** `GET /subscription`: what the Assinatura page shows. */
export async function subscriptionOf(ctx: BillingContext, session: RequestSession) {
  const company = await ctx.db
    .knex('companies as c')
    .join('plans as p', 'p.id', 'c.planId')
    .where('c.id', session.companyId)
    .first(
      'c.dueDate',
      'c.email',
      'c.recurrence',
      'c.numberAttendants',
      'c.numberConections',
      'p.id as planId',
      'p.name as planName',
      'p.amount',
    );
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  const dueDate =
    company.dueDate instanceof Date ? company.dueDate.toISOString().slice(0, 10) : String(company.dueDate).slice(0, 10);
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.parse(`${today()}T00:00:00Z`)) / 86_400_000);
  const { gateway, standIn } = billingState(ctx);
  return {
    dueDate,
    daysLeft: days,
    billingEmail: (company.email as string | null) ?? '',
    recurrence: company.recurrence as string,
    plan: { id: company.planId as number, name: company.planName as string, amount: toMoney(company.amount) },
    payable: gateway?.charges === true,
    demoPayments: standIn !== null,
  };
}
