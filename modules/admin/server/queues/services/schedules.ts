import { AppError } from '@balcao/plugin-sdk/server';
import { defaultSchedules, type ServiceHours, WEEKDAYS_EN } from '../../../shared/queues';

/** Minutes since midnight of an `HH:MM` text. */
function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return (hours as number) * 60 + (minutes as number);
}

/** Whether a shift is set (both ends given); an empty shift is closed. */
function shiftOpen(start: string, end: string): boolean {
  return start !== '' && end !== '';
}

/**
 * Service hours as stored: one entry per weekday given (the weekday name filled from `weekdayEn`), each
 * shift either empty or starting before it ends. Throws ERR_INVALID_SCHEDULE otherwise.
 */
export function normalizeSchedules(schedules: ServiceHours[]): ServiceHours[] {
  const seen = new Set<string>();
  const defaults = defaultSchedules();
  for (const day of schedules) {
    if (seen.has(day.weekdayEn)) throw new AppError('ERR_INVALID_SCHEDULE', { weekdayEn: day.weekdayEn });
    seen.add(day.weekdayEn);
    for (const [start, end] of [
      [day.startTimeA, day.endTimeA],
      [day.startTimeB, day.endTimeB],
    ] as const) {
      if ((start === '') !== (end === '')) throw new AppError('ERR_INVALID_SCHEDULE', { weekdayEn: day.weekdayEn });
      if (shiftOpen(start, end) && minutesOf(start) >= minutesOf(end)) {
        throw new AppError('ERR_INVALID_SCHEDULE', { weekdayEn: day.weekdayEn });
      }
    }
  }
  return WEEKDAYS_EN.filter((weekdayEn) => seen.has(weekdayEn)).map((weekdayEn) => {
    const day = schedules.find((entry) => entry.weekdayEn === weekdayEn) as ServiceHours;
    const weekday = defaults.find((entry) => entry.weekdayEn === weekdayEn)?.weekday as string;
    return { ...day, weekday };
  });
}

/**
 * Whether `at` falls inside the service hours: in shift A or B of its weekday (start included, end
 * excluded), in the server's local time, as the inbox's message variables read the clock. A weekday
 * without an entry, or with both shifts empty, is closed.
 */
export function isWithinHours(schedules: ServiceHours[], at: Date): boolean {
  const day = schedules.find((entry) => entry.weekdayEn === WEEKDAYS_EN[at.getDay()]);
  if (!day) return false;
  const now = at.getHours() * 60 + at.getMinutes();
  return [
    [day.startTimeA, day.endTimeA],
    [day.startTimeB, day.endTimeB],
  ].some(
    ([start, end]) =>
      shiftOpen(start as string, end as string) && now >= minutesOf(start as string) && now < minutesOf(end as string),
  );
}
