import Input from 'antd/es/input';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import type { ServiceHours } from '../shared/service-hours';
import { CORE_NAMESPACE } from './i18n';
import { useNarrowScreen } from './paged-lists';
import { dayProblem, type ServiceHoursEditorProps } from './service-hours';

type TimeField = 'startTimeA' | 'endTimeA' | 'startTimeB' | 'endTimeB';
const FIELDS: TimeField[] = ['startTimeA', 'endTimeA', 'startTimeB', 'endTimeB'];

/**
 * The week's service hours (docs/product/administration.md#entities Service-hours schedule): two shifts per weekday, times
 * HH:MM; an empty shift is closed. Loaded lazily through `ServiceHoursEditor` of `service-hours.tsx`.
 */
export default function ServiceHoursTable({ value, onChange }: ServiceHoursEditorProps) {
  const { t } = useTranslation(CORE_NAMESPACE);
  const narrow = useNarrowScreen();
  const set = (index: number, field: TimeField, time: string) =>
    onChange(value.map((day, i) => (i === index ? { ...day, [field]: time } : day)));
  const timeInput = (day: ServiceHours, index: number, field: TimeField) => (
    <Input
      type="time"
      step={600}
      aria-label={`${t(`serviceHours.weekdays.${day.weekdayEn}`)} — ${t(`serviceHours.${field}`)}`}
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
          title: t('serviceHours.weekday'),
          render: (_v, day) => (
            <>
              <Typography.Text strong>{t(`serviceHours.weekdays.${day.weekdayEn}`)}</Typography.Text>
              {dayProblem(day) ? (
                <Typography.Text type="danger" role="alert" style={{ display: 'block', fontSize: 12 }}>
                  {t(`serviceHours.errors.${dayProblem(day)}`)}
                </Typography.Text>
              ) : null}
            </>
          ),
        },
        ...FIELDS.map((field) => ({
          key: field,
          title: t(`serviceHours.${field}`),
          render: (_v: unknown, day: ServiceHours & { index: number }) => timeInput(day, day.index, field),
        })),
      ]}
    />
  );
}
