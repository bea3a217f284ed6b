import { defaultSchedules, type ServiceHours } from '@balcao/plugin-sdk/shared';
import { describe, expect, it } from 'vitest';
import { BUSINESS_DAYS, dueTime, nextBusinessTime, nextOccurrence, totalSends } from '../../shared/schedules';

/** Local times (the rule reads the server's clock, as the inbox's service hours do). */
const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('recurrence', () => {
  it('repeats only with an interval, as many times as asked', () => {
    expect(totalSends({ valorIntervalo: 0, enviarQuantasVezes: 5 })).toBe(1);
    expect(totalSends({ valorIntervalo: 2, enviarQuantasVezes: 5 })).toBe(5);
  });

  it('moves by days, weeks and months, a month keeping its day or the last one', () => {
    expect(nextOccurrence(at(2026, 3, 10, 9), 1, 3)).toEqual(at(2026, 3, 13, 9));
    expect(nextOccurrence(at(2026, 3, 10, 9), 2, 2)).toEqual(at(2026, 3, 24, 9));
    expect(nextOccurrence(at(2026, 1, 31, 9), 3, 1)).toEqual(at(2026, 2, 28, 9));
    expect(nextOccurrence(at(2026, 11, 15, 18, 30), 3, 2)).toEqual(at(2027, 1, 15, 18, 30));
    // counted from the first send, a monthly 31st comes back to the 31st after a short month
    expect(nextOccurrence(at(2026, 1, 31, 9), 3, 1, 2)).toEqual(at(2026, 3, 31, 9));
    expect(nextOccurrence(at(2026, 3, 10, 9), 2, 1, 3)).toEqual(at(2026, 3, 31, 9));
  });
});

describe('business days within the company hours', () => {
  const hours = defaultSchedules(); // 08:00–12:00 and 13:00–18:00 every day

  it('keeps a time already inside the hours of a weekday', () => {
    // Wednesday 10:15
    expect(nextBusinessTime(at(2026, 12, 2, 10, 15), hours)).toEqual(at(2026, 12, 2, 10, 15));
  });

  it('moves a lunch-break, evening or weekend time to the next opening', () => {
    expect(nextBusinessTime(at(2026, 12, 2, 12, 30), hours)).toEqual(at(2026, 12, 2, 13));
    expect(nextBusinessTime(at(2026, 12, 2, 19), hours)).toEqual(at(2026, 12, 3, 8));
    // Friday evening → Monday 08:00; Saturday and Sunday too
    expect(nextBusinessTime(at(2026, 12, 4, 18), hours)).toEqual(at(2026, 12, 7, 8));
    expect(nextBusinessTime(at(2026, 12, 5, 10), hours)).toEqual(at(2026, 12, 7, 8));
    expect(nextBusinessTime(at(2026, 12, 6, 23, 59), hours)).toEqual(at(2026, 12, 7, 8));
  });

  it('skips a weekday the company keeps closed', () => {
    const closedMonday: ServiceHours[] = hours.map((day) =>
      day.weekdayEn === 'monday' ? { ...day, startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' } : day,
    );
    expect(nextBusinessTime(at(2026, 12, 5, 10), closedMonday)).toEqual(at(2026, 12, 8, 8));
  });

  it('only skips weekends when the company has no open shift on a business day', () => {
    const closed = hours.map((day) => ({ ...day, startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' }));
    expect(nextBusinessTime(at(2026, 12, 5, 22, 10), closed)).toEqual(at(2026, 12, 7, 22, 10));
    expect(nextBusinessTime(at(2026, 12, 2, 22, 10), closed)).toEqual(at(2026, 12, 2, 22, 10));
  });

  it('applies only to tipoDias 5', () => {
    expect(dueTime(at(2026, 12, 5, 10), 4, hours)).toEqual(at(2026, 12, 5, 10));
    expect(dueTime(at(2026, 12, 5, 10), BUSINESS_DAYS, hours)).toEqual(at(2026, 12, 7, 8));
  });
});
