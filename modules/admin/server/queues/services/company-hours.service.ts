import { AppError, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { type CompanySchedulesShape, defaultSchedules, type ServiceHours } from '../../../shared/queues';
import { CompanyServiceHours } from '../models';
import { normalizeSchedules } from './schedules';

/** The caller of a company's schedules route: its own company's admin, or a super user for any company. */
export interface HoursCaller {
  companyId: number;
  super: boolean;
}

/**
 * Runs `fn` in the target company's scope after the access rule: an admin reaches only their own
 * company (another id answers 404, as if it didn't exist); a super user any company that exists.
 */
async function inCompany<T>(ctx: PluginContext, caller: HoursCaller, companyId: number, fn: () => Promise<T>): Promise<T> {
  if (caller.companyId !== companyId) {
    if (!caller.super) throw new AppError('ERR_NO_COMPANY_FOUND');
    const exists = await ctx.db.knex('companies').where({ id: companyId }).first('id');
    if (!exists) throw new AppError('ERR_NO_COMPANY_FOUND');
  }
  return runInTenant({ companyId }, fn);
}

/** What the bot reads of a company's service hours row. */
export type CompanyHours = Pick<
  CompanyServiceHours,
  'schedules' | 'outOfHoursMessage' | 'greetingMessage' | 'maxUseBotQueues' | 'timeUseBotQueues'
>;

/** A company's bot settings row as read, or the defaults when none was saved yet. */
export function companyHoursOf(row: CompanyHours | null | undefined): CompanyHours {
  return (
    row ?? { schedules: defaultSchedules(), outOfHoursMessage: '', greetingMessage: '', maxUseBotQueues: 3, timeUseBotQueues: 0 }
  );
}

/** The company's bot settings row (defaults when none was saved yet). */
export async function companyHours(): Promise<CompanyHours> {
  return companyHoursOf(await CompanyServiceHours.query().first());
}

/** `GET /companies/:companyId/schedules`. */
export async function readCompanySchedules(
  ctx: PluginContext,
  caller: HoursCaller,
  companyId: number,
): Promise<CompanySchedulesShape> {
  return inCompany(ctx, caller, companyId, async () => {
    const row = await companyHours();
    return { schedules: row.schedules, outOfHoursMessage: row.outOfHoursMessage };
  });
}

/** `PUT /companies/:companyId/schedules`: the week's hours (and, when given, the out-of-hours message). */
export async function saveCompanySchedules(
  ctx: PluginContext,
  caller: HoursCaller,
  companyId: number,
  input: { schedules: ServiceHours[]; outOfHoursMessage?: string },
): Promise<CompanySchedulesShape> {
  const schedules = normalizeSchedules(input.schedules);
  return inCompany(ctx, caller, companyId, async () => {
    const patch = {
      schedules: JSON.stringify(schedules),
      ...(input.outOfHoursMessage === undefined ? {} : { outOfHoursMessage: input.outOfHoursMessage }),
      updatedAt: new Date(),
    };
    await ctx.db
      .knex('companyServiceHours')
      .insert({ companyId, ...patch })
      .onConflict('companyId')
      .merge(Object.keys(patch));
    const row = await companyHours();
    return { schedules: row.schedules, outOfHoursMessage: row.outOfHoursMessage };
  });
}
