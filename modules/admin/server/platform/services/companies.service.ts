import { AppError, type PluginContext, type RequestSession, type Static } from '@balcao/plugin-sdk/server';
import type { CompanySchema, CreateCompanyBody, UpdateCompanyBody } from '../schemas';
import { nextDueDate, today } from './due-date';

type Company = Static<typeof CompanySchema>;

/** Companies listed per page by `GET /companies` and `GET /companiesPlan/`. */
export const COMPANIES_PAGE_SIZE = 20;

/** docs/product/administration.md#constants-and-limits Company form defaults. */
const DEFAULTS = { numberAttendants: 1, numberConections: 1, status: false, recurrence: 'MENSAL' } as const;

const iso = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

/** Companies with their plan: every company of the platform (super-user work, no tenant scope). */
function companiesQuery(ctx: PluginContext) {
  const { knex } = ctx.db;
  return knex('companies')
    .join('plans', 'plans.id', 'companies.planId')
    .select(
      'companies.*',
      knex.raw("to_char(companies.due_date, 'YYYY-MM-DD') as due_date"),
      'plans.name as planName',
      'plans.amount as planAmount',
    );
}

/** A company row with its plan and its storage folder's usage (docs/product/administration.md#companies-plans-and-helps columns). */
async function present(ctx: PluginContext, row: Record<string, unknown>): Promise<Company> {
  const usage = await ctx.storage.usage(row.id as number);
  return {
    id: row.id as number,
    name: row.name as string,
    email: (row.email as string | null) ?? null,
    phone: (row.phone as string | null) ?? null,
    document: (row.document as string | null) ?? null,
    addressStreet: (row.addressStreet as string | null) ?? null,
    addressState: (row.addressState as string | null) ?? null,
    addressCity: (row.addressCity as string | null) ?? null,
    planId: row.planId as number,
    plan: { id: row.planId as number, name: row.planName as string, amount: String(row.planAmount) },
    status: row.status as boolean,
    dueDate: row.dueDate as string,
    recurrence: row.recurrence as string,
    paymentMethod: (row.paymentMethod as string | null) ?? null,
    numberAttendants: row.numberAttendants as number,
    numberConections: row.numberConections as number,
    value: row.value === null || row.value === undefined ? null : String(row.value),
    createdAt: iso(row.createdAt as Date) as string,
    updatedAt: iso(row.updatedAt as Date) as string,
    lastLogin: iso(row.lastLogin as Date | null),
    folderSize: usage.bytes,
    numberFileFolder: usage.files,
    updatedAtFolder: iso(usage.updatedAt),
  };
}

/** Every company, by id (`GET /companies/list`). */
export async function listAllCompanies(ctx: PluginContext): Promise<Company[]> {
  const rows = await companiesQuery(ctx).orderBy('companies.id');
  return Promise.all(rows.map((row) => present(ctx, row)));
}

/** One page of companies matching a search by name, e-mail, phone or document. */
export async function pageCompanies(
  ctx: PluginContext,
  { searchParam = '', pageNumber = 1 }: { searchParam?: string; pageNumber?: number },
): Promise<{ companies: Company[]; count: number; hasMore: boolean }> {
  const search = searchParam.trim().toLowerCase();
  const filtered = companiesQuery(ctx).modify((query) => {
    if (!search) return;
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.where((where) => {
      where
        .whereRaw('lower(companies.name) like ?', [like])
        .orWhereRaw('lower(companies.email) like ?', [like])
        .orWhereRaw('companies.phone like ?', [like])
        .orWhereRaw('companies.document like ?', [like]);
    });
  });
  const [{ count }] = await filtered.clone().clearSelect().count({ count: 'companies.id' });
  const rows = await filtered
    .orderBy('companies.name')
    .orderBy('companies.id')
    .limit(COMPANIES_PAGE_SIZE)
    .offset((pageNumber - 1) * COMPANIES_PAGE_SIZE);
  const companies = await Promise.all(rows.map((row: Record<string, unknown>) => present(ctx, row)));
  return { companies, count: Number(count), hasMore: pageNumber * COMPANIES_PAGE_SIZE < Number(count) };
}

/** One company, or 404. */
export async function getCompany(ctx: PluginContext, companyId: number): Promise<Company> {
  const row = await companiesQuery(ctx).where('companies.id', companyId).first();
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return present(ctx, row);
}

async function requirePlan(ctx: PluginContext, planId: number): Promise<{ amount: string }> {
  const plan = await ctx.db.knex('plans').where({ id: planId }).first('amount');
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return plan;
}

/** Whether a super user belongs to the company (the platform's own). */
async function hasSuperUser(ctx: PluginContext, companyId: number): Promise<boolean> {
  return (await ctx.db.knex('users').where({ companyId, super: true }).first('id')) !== undefined;
}

/** Blank optional texts are stored as null. */
function clean<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, typeof value === 'string' ? value.trim() || null : value]),
  ) as T;
}

/**
 * Creates a company with its admin (e-mail and name of the company, the form's password) and the default
 * settings, through the core's tenancy service (the same steps as signup).
 */
export async function createCompany(ctx: PluginContext, body: Static<typeof CreateCompanyBody>): Promise<Company> {
  const { password, ...fields } = body;
  const plan = await requirePlan(ctx, fields.planId);
  const data = clean(fields);
  const { companyId } = await ctx.tenancy.createCompany({
    ...data,
    name: body.name.trim(),
    email: body.email.trim().toLowerCase(),
    planId: body.planId,
    status: body.status ?? DEFAULTS.status,
    dueDate: body.dueDate ?? today(),
    recurrence: body.recurrence ?? DEFAULTS.recurrence,
    numberAttendants: body.numberAttendants ?? DEFAULTS.numberAttendants,
    numberConections: body.numberConections ?? DEFAULTS.numberConections,
    value: body.value ?? plan.amount,
    admin: { name: body.name.trim(), email: body.email, password },
  });
  return getCompany(ctx, companyId);
}

/** Updates a company; its sessions see the change at once (plan flags, status, due date). */
export async function updateCompany(
  ctx: PluginContext,
  companyId: number,
  body: Static<typeof UpdateCompanyBody>,
): Promise<Company> {
  await getCompany(ctx, companyId);
  await requirePlan(ctx, body.planId);
  // deactivating the super user's company would lock the platform's administrator out
  if (body.status === false && (await hasSuperUser(ctx, companyId))) throw new AppError('ERR_CANNOT_DEACTIVATE_OWN_COMPANY');
  const data = clean({ ...body, name: body.name.trim(), email: body.email.trim().toLowerCase() });
  await ctx.db
    .knex('companies')
    .where({ id: companyId })
    .update({ ...data, updatedAt: ctx.db.knex.fn.now() });
  await ctx.session.invalidateCompany(companyId);
  return getCompany(ctx, companyId);
}

/** Moves a company's due date ahead by its recurrence (the Companies table's button). */
export async function advanceDueDate(ctx: PluginContext, companyId: number): Promise<Company> {
  const company = await getCompany(ctx, companyId);
  const dueDate = nextDueDate(company.dueDate, company.recurrence);
  await ctx.db.knex('companies').where({ id: companyId }).update({ dueDate, updatedAt: ctx.db.knex.fn.now() });
  await ctx.session.invalidateCompany(companyId);
  return getCompany(ctx, companyId);
}

/**
 * Deletes a company and, through the foreign keys, everything it owns. Never the caller's own company
 * nor any company a super user belongs to: the platform would lose its administrator.
 */
export async function deleteCompany(ctx: PluginContext, session: RequestSession, companyId: number): Promise<void> {
  await getCompany(ctx, companyId);
  if (companyId === session.companyId || (await hasSuperUser(ctx, companyId)))
    throw new AppError('ERR_CANNOT_DELETE_OWN_COMPANY');
  await ctx.db.knex('companies').where({ id: companyId }).delete();
  await ctx.session.invalidateCompany(companyId);
  // its messages' media, avatars and logos go with it (after the rows: a failed delete keeps the files)
  await ctx.storage.deleteAll(companyId);
}
