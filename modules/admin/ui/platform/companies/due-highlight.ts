import { daysUntil } from '@balcao/plugin-sdk/ui';

/** How a company's row is highlighted by its due date (docs/product/administration.md#screens-and-routes, #constants-and-limits). */
export type DueHighlight = 'soon' | 'overdue' | null;

/** Yellow when due in 1 to 5 days, red when due today or past, nothing otherwise. */
export function dueHighlight(dueDate: string, today: Date = new Date()): DueHighlight {
  const days = daysUntil(dueDate, today);
  if (days <= 0) return 'overdue';
  if (days <= 5) return 'soon';
  return null;
}
