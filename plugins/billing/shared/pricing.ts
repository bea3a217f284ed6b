/**
 * The custom plan's price (docs/product/administration.md "Invoices and subscription"): 3 users and 3
 * connections cost 49; each user more 11, each connection more 20; neither count goes below 3. The
 * checkout shows it and the server charges it — the server's figure is the one that counts.
 */
export const CUSTOM_PLAN = { baseUsers: 3, baseConnections: 3, basePrice: 49, perUser: 11, perConnection: 20, maxCount: 1000 };

/** The custom plan's price for these counts, in reais, or null when a count is out of range. */
export function customPlanPrice(users: number, connections: number): number | null {
  const valid = (count: number) => Number.isInteger(count) && count >= CUSTOM_PLAN.baseUsers && count <= CUSTOM_PLAN.maxCount;
  if (!valid(users) || !valid(connections)) return null;
  return (
    CUSTOM_PLAN.basePrice +
    (users - CUSTOM_PLAN.baseUsers) * CUSTOM_PLAN.perUser +
    (connections - CUSTOM_PLAN.baseConnections) * CUSTOM_PLAN.perConnection
  );
}

/** An amount in reais as the gateway and the database write it: two decimals, a dot. */
export const toMoney = (value: number | string): string => Number(value).toFixed(2);

/** Whether two amounts are the same number of cents. */
export const sameAmount = (a: number | string, b: number | string): boolean =>
  Math.round(Number(a) * 100) === Math.round(Number(b) * 100);

/** Months a recurrence moves a due date (docs/product/administration.md). */
export const RECURRENCE_MONTHS: Record<string, number> = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

/**
 * A calendar day (`YYYY-MM-DD`) moved `months` ahead; a day the target month lacks falls on its last day
 * (31 January + 1 month is the end of February), so a renewal never skips a month.
 */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const targetMonth = month - 1 + months;
  const lastDay = new Date(Date.UTC(year, targetMonth + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, targetMonth, Math.min(date, lastDay))).toISOString().slice(0, 10);
}

/** The next due date: `from` moved by the recurrence (an unknown one counts as MENSAL). */
export const nextDueDate = (from: string, recurrence: string): string => addMonths(from, RECURRENCE_MONTHS[recurrence] ?? 1);
