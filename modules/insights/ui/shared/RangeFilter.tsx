import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, DatePicker, Flex } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

export interface DayRangeValue {
  from: string;
  to: string;
}

/**
 * The filter panel's dates (docs/product/tickets-and-inbox.md#dashboard-and-moments): start, end and the Filter button. Without both dates the
 * documented warning 'Parametrize o filtro'; an end before the start is refused by the pickers themselves.
 */
export function RangeFilter({ value, onApply }: { value: DayRangeValue; onApply(range: DayRangeValue): void }) {
  const { t } = useTranslation('insights');
  const [start, setStart] = useState<Dayjs | null>(dayjs(value.from));
  const [end, setEnd] = useState<Dayjs | null>(dayjs(value.to));
  const apply = () => {
    if (!start || !end) {
      toast.warning(t('filter.required'));
      return;
    }
    onApply({ from: start.format('YYYY-MM-DD'), to: end.format('YYYY-MM-DD') });
  };
  return (
    <Flex gap={8} wrap align="center">
      <DatePicker
        aria-label={t('filter.start')}
        placeholder={t('filter.start')}
        format="DD/MM/YYYY"
        value={start}
        onChange={setStart}
        disabledDate={(day) => (end ? day.isAfter(end, 'day') : false)}
      />
      <DatePicker
        aria-label={t('filter.end')}
        placeholder={t('filter.end')}
        format="DD/MM/YYYY"
        value={end}
        onChange={setEnd}
        disabledDate={(day) => (start ? day.isBefore(start, 'day') : false)}
      />
      <Button type="primary" onClick={apply}>
        {t('filter.apply')}
      </Button>
    </Flex>
  );
}
