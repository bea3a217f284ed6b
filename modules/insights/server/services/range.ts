import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';

/** The longest range the dashboard and the report read: two years. */
export const MAX_RANGE_DAYS = 731;
/** A company without the `timezone` setting reads its days in São Paulo's. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** A range of calendar days, both included, in a company's time zone. */
export interface DayRange {
  from: string;
  to: string;
  timezone: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `day` is a real `YYYY-MM-DD` calendar day. */
export function isCalendarDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** Days from `from` to `to` (0 when equal). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `day` plus `days`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Today's calendar day in `timezone`. */
export function today(timezone: string, now = new Date()): string {
  // en-CA writes YYYY-MM-DD
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The company's time zone (setting `timezone`, checked when saved). */
export async function companyTimeZone(ctx: PluginContext, companyId: number): Promise<string> {
  const zone = (await ctx.settings.get(companyId, 'timezone'))?.trim();
  return zone || DEFAULT_TIME_ZONE;
}

/**
 * A range from the documented parameters: `days` (the last N days, today included), or `from`/`to` (either
 * alone: the other end is the same day's month start, or today). None at all answers ERR_DASHBOARD_FILTER_REQUIRED
 * ("Parametrize o filtro"); an end before the start or a day that doesn't exist, ERR_INVALID_DATE_RANGE;
 * more than two years, ERR_DATE_RANGE_TOO_LONG.
 */
export function resolveRange(
  input: { days?: number; from?: string; to?: string },
  timezone: string,
  options: { required: boolean; now?: Date } = { required: true },
): DayRange {
  const now = today(timezone, options.now);
  let from: string;
  let to: string;
  if (input.from === undefined && input.to === undefined) {
    if (input.days !== undefined) {
      to = now;
      from = addDays(now, -(input.days - 1));
    } else if (options.required) {
      throw new AppError('ERR_DASHBOARD_FILTER_REQUIRED');
    } else {
      to = now;
      from = `${now.slice(0, 8)}01`;
    }
  } else {
    to = input.to ?? now;
    from = input.from ?? `${to.slice(0, 8)}01`;
  }
  if (!isCalendarDay(from) || !isCalendarDay(to) || from > to) throw new AppError('ERR_INVALID_DATE_RANGE');
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) throw new AppError('ERR_DATE_RANGE_TOO_LONG');
  return { from, to, timezone };
}
