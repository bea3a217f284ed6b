import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { reportParams } from '../api';
import pt from '../locales/pt.json';
import { formatDay, formatMinutes, monthToDate } from './format';

/** The pt texts of `format.*`, filled as i18next would. */
const t = ((key: string, values: Record<string, unknown>) => {
  const template = key === 'format.hoursMinutes' ? pt.format.hoursMinutes : pt.format.minutes;
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}) as unknown as TFunction;

describe('formats', () => {
  it('shows averages as hours and minutes from minutes (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
    expect(formatMinutes(t, 0)).toBe('0min');
    expect(formatMinutes(t, 24)).toBe('24min');
    expect(formatMinutes(t, 29.6)).toBe('30min');
    expect(formatMinutes(t, 130)).toBe('2h 10min');
    expect(formatMinutes(t, 60 * 26)).toBe('26h 00min');
  });

  it('writes days as DD/MM/YYYY and starts the range at the month start', () => {
    expect(formatDay('2026-03-01')).toBe('01/03/2026');
    expect(monthToDate(new Date(2026, 2, 17, 15))).toEqual({ from: '2026-03-01', to: '2026-03-17' });
  });

  it("sends the report's lists as JSON arrays, as docs/product/administration.md#calls-and-realtime-events has them", () => {
    const params = reportParams({
      dateFrom: '2026-03-01',
      dateTo: '2026-03-31',
      status: ['open', 'closed'],
      queueIds: [3],
      users: [],
      onlyRated: true,
      searchParam: '  Maria ',
      page: 2,
      pageSize: 20,
    });
    expect(Object.fromEntries(params)).toEqual({
      dateFrom: '2026-03-01',
      dateTo: '2026-03-31',
      searchParam: 'Maria',
      status: '["open","closed"]',
      queueIds: '[3]',
      onlyRated: 'true',
      page: '2',
      pageSize: '20',
    });
  });
});
