import { AppError, PLAN_FLAGS, type PluginContext, type Static } from '@balcao/plugin-sdk/server';
import type { PlanBody, PlanSchema } from '../schemas';

type Plan = Static<typeof PlanSchema>;
const PLAN_COLUMNS = ['id', 'name', 'users', 'connections', 'queues', 'amount', 'isPublic', ...PLAN_FLAGS];

/** Every plan (the super user's Plans tab and the company form's plan select). */
export async function listPlans(ctx: PluginContext): Promise<Plan[]> {
  return ctx.db.knex('plans').orderBy('name').select(PLAN_COLUMNS);
}

export async function getPlan(ctx: PluginContext, planId: number): Promise<Plan> {
  const plan = await ctx.db.knex('plans').where({ id: planId }).first(PLAN_COLUMNS);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return plan;
}

/** The row of a plan body: the flags a body leaves out are off; a plan is public unless said otherwise. */
function row(body: Static<typeof PlanBody>) {
  return {
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
  await refuseTakenName(ctx, body.name);
  const [created] = await ctx.db.knex('plans').insert(row(body)).returning('id').catch(nameRace);
  return getPlan(ctx, created.id);
}

/**
 * Updates a plan. Every company on it has its cached state dropped, so new flags and limits apply at
 * once (features load per plan).
 */
export async function updatePlan(ctx: PluginContext, planId: number, body: Static<typeof PlanBody>): Promise<Plan> {
  await getPlan(ctx, planId);
  await refuseTakenName(ctx, body.name, planId);
  await ctx.db
    .knex('plans')
    .where({ id: planId })
    .update({ ...row(body), updatedAt: ctx.db.knex.fn.now() })
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
