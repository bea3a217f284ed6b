import { describe, expect, it } from 'vitest';
import { addMonths, nextDueDate } from './due-date';

describe('due dates', () => {
  it('advance by the months of each recurrence (docs/product/administration.md#states-and-transitions)', () => {
    expect(nextDueDate('2026-01-15', 'MENSAL')).toBe('2026-02-15');
    expect(nextDueDate('2026-01-15', 'BIMESTRAL')).toBe('2026-03-15');
    expect(nextDueDate('2026-01-15', 'TRIMESTRAL')).toBe('2026-04-15');
    expect(nextDueDate('2026-01-15', 'SEMESTRAL')).toBe('2026-07-15');
    expect(nextDueDate('2026-01-15', 'ANUAL')).toBe('2027-01-15');
  });

  it('land on the last day of a shorter month and cross years', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-08-31', 6)).toBe('2027-02-28');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
  });
});
