import { hoursValid, ServiceHoursEditor, showError, skipToken, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Form, Input, Skeleton, Space } from 'antd';
import { useEffect, useState } from 'react';
import { type ServiceHours, useGetCompanySchedulesQuery, useUpdateCompanySchedulesMutation } from './api';

/**
 * The Settings page's Schedules tab (docs/product/administration.md#settings; shown when scheduleType is company):
 * the company's service hours and the message sent outside them.
 */
export function SchedulesTab() {
  const { t } = useTranslation('admin');
  const companyId = useSession()?.companyId;
  const { data, isLoading } = useGetCompanySchedulesQuery(companyId ?? skipToken);
  const [save, saving] = useUpdateCompanySchedulesMutation();
  const [schedules, setSchedules] = useState<ServiceHours[]>([]);
  const [outOfHoursMessage, setOutOfHoursMessage] = useState('');

  useEffect(() => {
    if (!data) return;
    setSchedules(data.schedules);
    setOutOfHoursMessage(data.outOfHoursMessage);
  }, [data]);

  if (isLoading || !data || companyId === undefined) return <Skeleton active paragraph={{ rows: 8 }} />;

  const submit = async () => {
    try {
      await save({ companyId, schedules, outOfHoursMessage }).unwrap();
      toast.success(t('queues.toasts.hoursSaved'));
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12}>
      <ServiceHoursEditor value={schedules} onChange={setSchedules} />
      <Form layout="vertical">
        <Form.Item label={t('queues.form.outOfHours')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={10_000}
            value={outOfHoursMessage}
            onChange={(event) => setOutOfHoursMessage(event.target.value)}
          />
        </Form.Item>
      </Form>
      <Button type="primary" onClick={submit} loading={saving.isLoading} disabled={!hoursValid(schedules)}>
        {t('queues.hours.save')}
      </Button>
    </Space>
  );
}
