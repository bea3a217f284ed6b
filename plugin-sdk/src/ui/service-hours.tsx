import { lazy, Suspense } from 'react';
import type { ServiceHours } from '../shared/service-hours';

/** Minutes of an `HH:MM` text. */
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** What is wrong with a weekday's shifts (`incomplete`: one end only; `order`: ends before it starts), or null. */
export function dayProblem(day: ServiceHours): 'incomplete' | 'order' | null {
  for (const [start, end] of [
    [day.startTimeA, day.endTimeA],
    [day.startTimeB, day.endTimeB],
  ] as const) {
    if ((start === '') !== (end === '')) return 'incomplete';
    if (start !== '' && minutes(start) >= minutes(end)) return 'order';
  }
  return null;
}

/** Whether every weekday's shifts can be saved. */
export function hoursValid(days: ServiceHours[]): boolean {
  return days.every((day) => dayProblem(day) === null);
}

/** Props of `ServiceHoursEditor`. */
export interface ServiceHoursEditorProps {
  value: ServiceHours[];
  onChange(next: ServiceHours[]): void;
}

// The table is its own chunk, and the fallback plain: the SDK is loaded by the login page, whose budget
// leaves no room for antd's Table or Skeleton (docs/benchmarks.md).
const ServiceHoursTable = lazy(() => import('./ServiceHoursEditor'));

/**
 * The week's service hours (docs/product/administration.md#entities Service-hours schedule): two shifts per weekday, times
 * HH:MM, an empty shift closed, each weekday's problem shown under its name. One editor for the company's
 * Schedules tab, the queue dialog and the connection editor; check with `hoursValid` before saving.
 */
export function ServiceHoursEditor(props: ServiceHoursEditorProps) {
  return (
    <Suspense fallback={<div aria-busy="true" style={{ minHeight: 280 }} />}>
      <ServiceHoursTable {...props} />
    </Suspense>
  );
}
