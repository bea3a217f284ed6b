import { type ServiceHours, WEEKDAYS_EN } from '@balcao/plugin-sdk/shared';

/**
 * The schedules' rules shared by the server and the dialog (docs/product/automation.md#schedules): the
 * recurrence and the business-time rule of `tipoDias`.
 */

/** A schedule's state: sends left, all sent, or given up. */
export type ScheduleStatus = 'PENDENTE' | 'ENVIADA' | 'ERRO';
export const SCHEDULE_STATUSES: ScheduleStatus[] = ['PENDENTE', 'ENVIADA', 'ERRO'];

/** The recurrence unit of `intervalo`. */
export const INTERVAL_UNITS = { days: 1, weeks: 2, months: 3 } as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[keyof typeof INTERVAL_UNITS];

/** `tipoDias`: 4 sends at the time set, any day; 5 only on business days within the company's hours. */
export const ANY_DAY = 4;
export const BUSINESS_DAYS = 5;

/** Bounds of the recurrence (docs/product/automation.md#schedules). */
export const MAX_SENDS = 100;
export const MAX_INTERVAL_VALUE = 365;

/** Channels that take a free-form message only within 24 hours of the contact's last one (Meta's). */
export const REPLY_WINDOW_CHANNELS = ['whatsappapi', 'facebook', 'instagram'];
export const REPLY_WINDOW_MS = 24 * 3_600_000;

/** How many sends a schedule makes: one unless an interval repeats it. */
export function totalSends(schedule: { valorIntervalo: number; enviarQuantasVezes: number }): number {
  return schedule.valorIntervalo > 0 ? Math.max(1, schedule.enviarQuantasVezes) : 1;
}

/**
 * The occurrence `count` intervals after `anchor` (the first send): `valorIntervalo` days, weeks or months
 * each. Counted from the anchor, a month keeps the anchor's day (or the month's last) and never drifts.
 */
export function nextOccurrence(anchor: Date, intervalo: number, valorIntervalo: number, count = 1): Date {
  const next = new Date(anchor.getTime());
  if (intervalo === INTERVAL_UNITS.months) {
    const day = next.getDate();
    next.setDate(1);
    next.setMonth(next.getMonth() + valorIntervalo * count);
    const lastDay = new Date(next.getFullYear(), next.getMonth() + 1, 0).getDate();
    next.setDate(Math.min(day, lastDay));
    return next;
  }
  next.setDate(next.getDate() + valorIntervalo * count * (intervalo === INTERVAL_UNITS.weeks ? 7 : 1));
  return next;
}

function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours as number) * 60 + (minutes as number);
}

function isBusinessDay(day: Date): boolean {
  return day.getDay() !== 0 && day.getDay() !== 6;
}

/** The open shifts of a weekday as [start, end) minutes, in order. */
function shiftsOf(hours: ServiceHours[], weekday: number): Array<[number, number]> {
  const entry = hours.find((day) => day.weekdayEn === WEEKDAYS_EN[weekday]);
  if (!entry) return [];
  const shifts: Array<[number, number]> = [];
  for (const [start, end] of [
    [entry.startTimeA, entry.endTimeA],
    [entry.startTimeB, entry.endTimeB],
  ] as const) {
    if (start && end && minutesOf(start) < minutesOf(end)) shifts.push([minutesOf(start), minutesOf(end)]);
  }
  return shifts.sort((a, b) => a[0] - b[0]);
}

/**
 * The first moment at or after `at` on a business day (Monday to Friday) inside the company's service
 * hours, in the server's local time (as the inbox reads the hours). A company whose week has no open shift
 * on a business day only skips weekends: the send keeps its time of day on the next Monday.
 */
export function nextBusinessTime(at: Date, hours: ServiceHours[]): Date {
  const anyShift = [1, 2, 3, 4, 5].some((weekday) => shiftsOf(hours, weekday).length > 0);
  for (let offset = 0; offset <= 14; offset++) {
    const day = new Date(at.getFullYear(), at.getMonth(), at.getDate() + offset);
    if (!isBusinessDay(day)) continue;
    if (!anyShift) {
      return offset === 0
        ? at
        : new Date(day.getFullYear(), day.getMonth(), day.getDate(), at.getHours(), at.getMinutes(), at.getSeconds());
    }
    for (const [start, end] of shiftsOf(hours, day.getDay())) {
      const opens = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 0, start);
      const closes = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 0, end);
      if (closes.getTime() <= at.getTime()) continue;
      return opens.getTime() > at.getTime() ? opens : at;
    }
  }
  return at;
}

/** When an occurrence set for `sendAt` really goes out. */
export function dueTime(sendAt: Date, tipoDias: number, hours: ServiceHours[]): Date {
  return tipoDias === BUSINESS_DAYS ? nextBusinessTime(sendAt, hours) : sendAt;
}
