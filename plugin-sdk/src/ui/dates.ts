/** docs/product/tickets-and-inbox.md#constants-and-limits: dates are shown DD/MM/YYYY. Accepts `YYYY-MM-DD` or a full ISO timestamp; anything else is returned as is. */
export function formatDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}

/**
 * Whole calendar days from `today` until the due date `YYYY-MM-DD` (0 on the day itself, negative once
 * past). Calendar days, not 24-hour periods, so the answer does not change during the day.
 */
export function daysUntil(dueDate: string, today: Date = new Date()): number {
  const [year, month, day] = dueDate.slice(0, 10).split('-').map(Number);
  const due = Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1);
  const now = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return Math.round((due - now) / 86_400_000);
}
