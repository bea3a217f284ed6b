import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Input, Table, Typography } from 'antd';
import { useNarrowScreen } from '../../team/shared';
import type { ServiceHours } from '../api';

type TimeField = 'startTimeA' | 'endTimeA' | 'startTimeB' | 'endTimeB';
const FIELDS: TimeField[] = ['startTimeA', 'endTimeA', 'startTimeB', 'endTimeB'];

/** Minutes of an `HH:MM` text. */
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A weekday's shift problem (i18n key of `queues.hours.errors`), or null. */
export function dayProblem(day: ServiceHours): string | null {
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

/**
 * The week's service hours (2-administration §3 Service-hours schedule): two shifts per weekday, times
 * HH:MM; an empty shift is closed. Used by the queue dialog's schedule tab and the Settings page's
 * Schedules tab.
 */
export function ServiceHoursEditor({ value, onChange }: { value: ServiceHours[]; onChange(next: ServiceHours[]): void }) {
  const { t } = useTranslation('admin');
  const narrow = useNarrowScreen();
  const set = (index: number, field: TimeField, time: string) =>
    onChange(value.map((day, i) => (i === index ? { ...day, [field]: time } : day)));
  const timeInput = (day: ServiceHours, index: number, field: TimeField) => (
    <Input
      type="time"
      step={600}
      aria-label={`${t(`queues.hours.weekdays.${day.weekdayEn}`)} — ${t(`queues.hours.${field}`)}`}
      value={day[field]}
      onChange={(event) => set(index, field, event.target.value)}
      style={{ width: narrow ? 104 : 120 }}
    />
  );
  return (
    <Table<ServiceHours & { index: number }>
      size="small"
      pagination={false}
      rowKey="weekdayEn"
      scroll={{ x: true }}
      dataSource={value.map((day, index) => ({ ...day, index }))}
      columns={[
        {
          key: 'weekday',
          title: t('queues.hours.weekday'),
          render: (_v, day) => (
            <>
              <Typography.Text strong>{t(`queues.hours.weekdays.${day.weekdayEn}`)}</Typography.Text>
              {dayProblem(day) ? (
                <Typography.Text type="danger" role="alert" style={{ display: 'block', fontSize: 12 }}>
                  {t(`queues.hours.errors.${dayProblem(day)}`)}
                </Typography.Text>
              ) : null}
            </>
          ),
        },
        ...FIELDS.map((field) => ({
          key: field,
          title: t(`queues.hours.${field}`),
          render: (_v: unknown, day: ServiceHours & { index: number }) => timeInput(day, day.index, field),
        })),
      ]}
    />
  );
}
