import { AppError } from '@balcao/plugin-sdk/server';
import { invalidScheduleDay, orderedSchedules, type ServiceHours } from '@balcao/plugin-sdk/shared';

export { isWithinHours } from '@balcao/plugin-sdk/shared';

/**
 * Service hours as stored: one entry per weekday given (the weekday name filled from `weekdayEn`), each
 * shift either empty or starting before it ends. Throws ERR_INVALID_SCHEDULE otherwise.
 */
export function normalizeSchedules(schedules: ServiceHours[]): ServiceHours[] {
  const invalid = invalidScheduleDay(schedules);
  if (invalid !== null) throw new AppError('ERR_INVALID_SCHEDULE', { weekdayEn: invalid });
  return orderedSchedules(schedules);
}
