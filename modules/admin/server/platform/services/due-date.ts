import { RECURRENCE_MONTHS, type Recurrence } from '../schemas';

/**
 * A calendar day (`YYYY-MM-DD`) moved `months` ahead. A day the target month lacks falls on its last
 * day (31 January + 1 month is 28 or 29 February), so a renewal never skips a month.
 */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const targetMonth = month - 1 + months;
  const lastDay = new Date(Date.UTC(year, targetMonth + 1, 0)).getUTCDate();
  const moved = new Date(Date.UTC(year, targetMonth, Math.min(date, lastDay)));
  return moved.toISOString().slice(0, 10);
}

/** The next due date of a company: its due date moved by its recurrence (docs/product/administration.md#states-and-transitions). */
export function nextDueDate(dueDate: string, recurrence: string): string {
  const months = RECURRENCE_MONTHS[recurrence as Recurrence] ?? RECURRENCE_MONTHS.MENSAL;
  return addMonths(dueDate, months);
}

/** Today as a calendar day of the server's zone (the day subscriptions are checked against). */
export function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
