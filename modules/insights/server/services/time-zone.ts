import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';

/**
 * Changes the company's time zone (setting `timezone`): the days its figures are counted in. The days
 * already folded were counted in the old zone, so they are recomputed from the cycles in the same
 * transaction (`insights_rebuild_daily`; ticket changes wait meanwhile, under a second for 100,000 tickets).
 */
export async function changeTimeZone(ctx: PluginContext, companyId: number, timezone: string): Promise<void> {
  const known = await ctx.db.knex.raw('SELECT 1 FROM pg_timezone_names WHERE name = ? LIMIT 1', [timezone]);
  if (known.rows.length === 0) throw new AppError('ERR_INVALID_TIME_ZONE');
  await ctx.db.transaction(async (trx) => {
    await trx('settings')
      .insert({ companyId, key: 'timezone', value: timezone })
      .onConflict(['companyId', 'key'])
      .merge({ value: timezone, updatedAt: trx.fn.now() });
    await trx.raw('SELECT insights_rebuild_daily(?)', [companyId]);
  });
  await ctx.session.invalidateCompany(companyId);
  await ctx.events.publish('settings.updated', { companyId, key: 'timezone', value: timezone });
}
