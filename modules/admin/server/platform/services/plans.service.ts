import { AppError, PLAN_FLAGS, type PluginContext, pluginFlagsOf, type Static } from '@balcao/plugin-sdk/server';
import type { PlanBody, PlanSchema } from '../schemas';

type Plan = Static<typeof PlanSchema>;
const PLAN_COLUMNS = ['id', 'name', 'users', 'connections', 'queues', 'amount', 'isPublic', ...PLAN_FLAGS, 'pluginFlags'];

/** A plan row as the API answers it: every loaded plugin's own flag, on or off. */
function shown(ctx: PluginContext, plan: Plan): Plan {
  return { ...plan, pluginFlags: pluginFlagsOf(plan.pluginFlags, ctx.plans.pluginFlags()) };
}

/**
 * The stored plugin flags after a save: the body's, for every flag the loaded plugins declare (left out:
 * off); those of plugins not loaded now are kept as they were. A key nobody declares is refused.
 */
function pluginFlagsRow(ctx: PluginContext, body: Static<typeof PlanBody>, stored: unknown): string {
  const declared = new Set(ctx.plans.pluginFlags().map((flag) => flag.key));
  const given = body.pluginFlags ?? {};
  const unknown = Object.keys(given).filter((key) => !declared.has(key));
  if (unknown.length > 0) throw new AppError('ERR_UNKNOWN_PLAN_FLAG', { flags: unknown });
  const kept = Object.entries((stored ?? {}) as Record<string, unknown>).filter(([key]) => !declared.has(key));
  return JSON.stringify(Object.fromEntries([...kept, ...[...declared].map((key) => [key, given[key] === true])]));
}

/** The flags the loaded plugins declare for themselves, with their labels (the Plans page's extra switches). */
export function pluginFlagList(ctx: PluginContext) {
  return { flags: ctx.plans.pluginFlags() };
}

/** Every plan (the super user's Plans tab and the company form's plan select). */
export async function listPlans(ctx: PluginContext): Promise<Plan[]> {
  const rows: Plan[] = await ctx.db.knex('plans').orderBy('name').select(PLAN_COLUMNS);
  return rows.map((plan) => shown(ctx, plan));
}

export async function getPlan(ctx: PluginContext, planId: number): Promise<Plan> {
  const plan = await ctx.db.knex('plans').where({ id: planId }).first(PLAN_COLUMNS);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return shown(ctx, plan);
}

/** The row of a plan body: the flags a body leaves out are off; a plan is public unless said otherwise. */
function row(ctx: PluginContext, body: Static<typeof PlanBody>, storedPluginFlags: unknown) {
  return {
    pluginFlags: pluginFlagsRow(ctx, body, storedPluginFlags),
    ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, body[flag] ?? false])),
    name: body.name.trim(),
    users: body.users,
    connections: body.connections,
    queues: body.queues,
    amount: body.amount,
    isPublic: body.isPublic ?? true,
  };
}

async function refuseTakenName(ctx: PluginContext, name: string, exceptId?: number): Promise<void> {
  const taken = await ctx.db.knex('plans').whereRaw('lower(name) = lower(?)', [name.trim()]).first('id');
  if (taken && taken.id !== exceptId) throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS');
}

/** Two saves of one name at once both pass the check; the unique index decides. */
function nameRace(error: unknown): never {
  if ((error as { constraint?: string }).constraint === 'plans_name_unique') throw new AppError('ERR_PLAN_NAME_ALREADY_EXISTS');
  throw error;
}

export async function createPlan(ctx: PluginContext, body: Static<typeof PlanBody>): Promise<Plan> {
  const values = row(ctx, body, {});
  await refuseTakenName(ctx, body.name);
  const [created] = await ctx.db.knex('plans').insert(values).returning('id').catch(nameRace);
  return getPlan(ctx, created.id);
}

/**
 * Updates a plan. Every company on it has its cached state dropped, so new flags and limits apply at
 * once (features load per plan).
 */
export async function updatePlan(ctx: PluginContext, planId: number, body: Static<typeof PlanBody>): Promise<Plan> {
  await getPlan(ctx, planId);
  const stored = await ctx.db.knex('plans').where({ id: planId }).first('pluginFlags');
  const values = row(ctx, body, stored?.pluginFlags);
  await refuseTakenName(ctx, body.name, planId);
  await ctx.db
    .knex('plans')
    .where({ id: planId })
    .update({ ...values, updatedAt: ctx.db.knex.fn.now() })
    .catch(nameRace);
  const companies: Array<{ id: number }> = await ctx.db.knex('companies').where({ planId }).select('id');
  for (const company of companies) await ctx.session.invalidateCompany(company.id);
  return getPlan(ctx, planId);
}

/** Deletes a plan no company uses (409 ERR_PLAN_IN_USE otherwise). */
export async function deletePlan(ctx: PluginContext, planId: number): Promise<void> {
  await getPlan(ctx, planId);
  const used = await ctx.db.knex('companies').where({ planId }).first('id');
  if (used) throw new AppError('ERR_PLAN_IN_USE');
  // a company created meanwhile is stopped by the foreign key (RESTRICT): the same answer
  await ctx.db
    .knex('plans')
    .where({ id: planId })
    .delete()
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '23503') throw new AppError('ERR_PLAN_IN_USE');
      throw error;
    });
}
