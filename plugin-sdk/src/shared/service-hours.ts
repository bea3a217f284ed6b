/**
 * Service hours (docs/product/administration.md#entities Service-hours schedule): one entry per weekday with two shifts. Shared
 * because companies, queues (administration) and connections (channels) all keep a week of them, and
 * their automation asks the same question: is it open now?
 */

/** One weekday of service hours: two shifts (A and B), times HH:MM; an empty shift is closed. */
export interface ServiceHours {
  weekday: string;
  weekdayEn: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  startTimeA: string;
  endTimeA: string;
  startTimeB: string;
  endTimeB: string;
}

export const WEEKDAYS_EN: ServiceHours['weekdayEn'][] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

/** Portuguese weekday names, as the documented `weekday` field carries them. */
export const WEEKDAYS_PT = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];

/** The default service hours (docs/product/administration.md#constants-and-limits): 08:00–12:00 and 13:00–18:00 every day. */
export function defaultSchedules(): ServiceHours[] {
  return WEEKDAYS_EN.map((weekdayEn, index) => ({
    weekday: WEEKDAYS_PT[index] as string,
    weekdayEn,
    startTimeA: '08:00',
    endTimeA: '12:00',
    startTimeB: '13:00',
    endTimeB: '18:00',
  }));
}

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
 * The weekday of the first invalid entry of a week (a weekday given twice, a shift with one end only, a
 * shift that doesn't start before it ends), or null when the week is valid.
 */
export function invalidScheduleDay(schedules: ServiceHours[]): ServiceHours['weekdayEn'] | null {
  const seen = new Set<string>();
  for (const day of schedules) {
    if (seen.has(day.weekdayEn)) return day.weekdayEn;
    seen.add(day.weekdayEn);
    for (const [start, end] of [
      [day.startTimeA, day.endTimeA],
      [day.startTimeB, day.endTimeB],
    ] as const) {
      if ((start === '') !== (end === '')) return day.weekdayEn;
      if (shiftOpen(start, end) && minutesOf(start) >= minutesOf(end)) return day.weekdayEn;
    }
  }
  return null;
}

/**
 * A valid week in weekday order with the Portuguese names filled from `weekdayEn` (check it first with
 * `invalidScheduleDay`).
 */
export function orderedSchedules(schedules: ServiceHours[]): ServiceHours[] {
  const defaults = defaultSchedules();
  return WEEKDAYS_EN.filter((weekdayEn) => schedules.some((entry) => entry.weekdayEn === weekdayEn)).map((weekdayEn) => {
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
