import { AppError, type PluginContext, type RequestSession } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { toMoney } from '../../shared/pricing';

/** recurring: the period's invoice made by the job; subscription: a plan chosen at checkout; oneoff: the super user's. */
export type InvoiceKind = 'recurring' | 'subscription' | 'oneoff';

/** Invoices a page of `GET /invoices`. */
export const INVOICES_PAGE_SIZE = 20;

/** An invoice as the API shows it (docs/product/administration.md "Entities" Invoice, and billing's own fields). */
export interface InvoiceJson {
  id: number;
  companyId: number;
  companyName: string;
  detail: string;
  kind: InvoiceKind;
  users: number;
  connections: number;
  dueDate: string;
  value: string;
  /** `Pago` when paid, `Aberto` otherwise. */
  status: 'Pago' | 'Aberto';
  paidAt: string | null;
  paidWith: string | null;
  /** Where the company pays it: the subscription page's checkout for this invoice. */
  linkInvoice: string | null;
  createdAt: string;
}

export interface InvoiceRow {
  id: number;
  companyId: number;
  companyName?: string;
  detail: string;
  kind: InvoiceKind;
  period: string | null;
  dueDate: string;
  value: string;
  users: number;
  connections: number;
  planId: number | null;
  status: 'open' | 'paid';
  paidAt: Date | null;
  paidWith: string | null;
  createdAt: Date;
}

const day = (value: Date | string) => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

export function invoiceJson(row: InvoiceRow): InvoiceJson {
  const paid = row.status === 'paid';
  return {
    id: row.id,
    companyId: row.companyId,
    companyName: row.companyName ?? '',
    detail: row.detail,
    kind: row.kind,
    users: row.users,
    connections: row.connections,
    dueDate: day(row.dueDate),
    value: toMoney(row.value),
    status: paid ? 'Pago' : 'Aberto',
    paidAt: row.paidAt ? new Date(row.paidAt).toISOString() : null,
    paidWith: row.paidWith,
    linkInvoice: paid ? null : `/subscription?invoiceId=${row.id}`,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const invoiceColumns = ['i.*', 'c.name as companyName'];

/**
 * Makes the invoice of every active company whose due date is at most `leadDays` away (or past), for
 * that due date, at its price — the company's own value when set, else its plan's. One statement; the
 * unique (company, period) index makes any number of concurrent runs, retries and restarts write one
 * invoice per period. Free companies (price 0) get none. Answers the invoices made.
 */
export async function generateDueInvoices(
  knex: Knex,
  options: { today: string; leadDays: number },
): Promise<Array<{ id: number; companyId: number }>> {
  const result = (await knex.raw(
    `INSERT INTO invoices (company_id, detail, kind, period, due_date, value, users, connections, status)
     SELECT c.id, p.name, 'recurring', c.due_date, c.due_date,
            CASE WHEN coalesce(c.value, 0) > 0 THEN c.value ELSE p.amount END,
            p.users, p.connections, 'open'
       FROM companies c JOIN plans p ON p.id = c.plan_id
      WHERE c.status AND c.due_date <= ?::date + ?::int
        AND (CASE WHEN coalesce(c.value, 0) > 0 THEN c.value ELSE p.amount END) > 0
     ON CONFLICT (company_id, period) WHERE period IS NOT NULL DO NOTHING
     RETURNING id, company_id AS "companyId"`,
    [options.today, options.leadDays],
  )) as { rows: Array<{ id: number; companyId: number }> };
  return result.rows;
}

/**
 * `GET /invoices`: the caller's company's invoices, newest due date first — every company's for the
 * super user — matching `searchParam` (detail, company name, or the invoice's number), 20 a page.
 */
export async function listInvoices(
  ctx: PluginContext,
  session: RequestSession,
  query: { searchParam?: string; pageNumber?: number },
): Promise<{ invoices: InvoiceJson[]; count: number; hasMore: boolean }> {
  const page = query.pageNumber ?? 1;
  const search = query.searchParam?.trim() ?? '';
  const base = ctx.db.knex('invoices as i').join('companies as c', 'c.id', 'i.companyId');
  if (!session.super) base.where('i.companyId', session.companyId);
  if (search) {
    base.where((q) => {
      q.whereILike('i.detail', `%${search}%`).orWhereILike('c.name', `%${search}%`);
      if (/^\d{1,9}$/.test(search)) q.orWhere('i.id', Number(search));
    });
  }
  const [counted] = await base.clone().count<Array<{ count: string }>>('i.id as count');
  const rows = (await base
    .select(invoiceColumns)
    .orderBy([
      { column: 'i.dueDate', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ])
    .limit(INVOICES_PAGE_SIZE)
    .offset((page - 1) * INVOICES_PAGE_SIZE)) as InvoiceRow[];
  const count = Number(counted?.count ?? 0);
  return { invoices: rows.map(invoiceJson), count, hasMore: count > page * INVOICES_PAGE_SIZE };
}

/** One invoice the caller may see (their company's; any for the super user), else 404. */
export async function findInvoice(knex: Knex, session: RequestSession, id: number): Promise<InvoiceRow> {
  const query = knex('invoices as i').join('companies as c', 'c.id', 'i.companyId').where('i.id', id).first(invoiceColumns);
  if (!session.super) query.where('i.companyId', session.companyId);
  const row = (await query) as InvoiceRow | undefined;
  if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');
  return row;
}

export interface OneOffInvoiceInput {
  companyId: number;
  detail: string;
  value: number;
  dueDate: string;
  users?: number;
  connections?: number;
}

/** `POST /invoices` (super user): a one-off invoice for any company; paying it doesn't move the due date. */
export async function createOneOffInvoice(ctx: PluginContext, input: OneOffInvoiceInput): Promise<InvoiceJson> {
  const { knex } = ctx.db;
  const company = await knex('companies as c')
    .join('plans as p', 'p.id', 'c.planId')
    .where('c.id', input.companyId)
    .first('c.id', 'p.users', 'p.connections');
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  const [created] = await knex('invoices')
    .insert({
      companyId: input.companyId,
      detail: input.detail.trim(),
      kind: 'oneoff',
      dueDate: input.dueDate,
      value: toMoney(input.value),
      users: input.users ?? company.users,
      connections: input.connections ?? company.connections,
      status: 'open',
    })
    .returning('id');
  return invoiceJson(
    await findInvoice(knex, { super: true, companyId: input.companyId, userId: 0, profile: 'admin' }, created.id),
  );
}
