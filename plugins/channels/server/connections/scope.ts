import { AppError, type FastifyRequest, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';

/**
 * The company a connection route acts on. Everyone acts on their session's company; the super user also
 * manages any company's connections from All connections (docs/product/administration.md#all-connections: session actions, edit,
 * delete and an add menu in each company's dialog), so for them a connection of another company is
 * reached by its id, and a new one goes to the `companyId` they name.
 */
export async function connectionCompany(ctx: PluginContext, request: FastifyRequest, connectionId: number): Promise<number> {
  const own = request.session?.companyId as number;
  const user = await ctx.access.sessionUser(request);
  if (!user.super) return own;
  const row = await ctx.db.knex('whatsapps').where({ id: connectionId }).first('companyId');
  return (row?.companyId as number | undefined) ?? own;
}

/** The company a new connection is for: the session's, or for the super user the one named. */
export async function creationCompany(ctx: PluginContext, request: FastifyRequest, named: number | undefined): Promise<number> {
  const own = request.session?.companyId as number;
  if (named === undefined || named === own) return own;
  const user = await ctx.access.sessionUser(request);
  if (!user.super) throw new AppError('ERR_NO_PERMISSION');
  const company = await ctx.db.knex('companies').where({ id: named }).first('id');
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  return named;
}

/** Runs `fn` in that company's tenant scope (its models, settings and events are that company's). */
export function inCompany<T>(companyId: number, fn: () => Promise<T>): Promise<T> {
  return runInTenant({ companyId }, fn);
}
