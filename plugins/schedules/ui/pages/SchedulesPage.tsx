import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useNarrowScreen, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Flex, Popconfirm, Skeleton, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/tr';
import { useEffect, useMemo, useState } from 'react';
import { Calendar, dayjsLocalizer, type EventProps, type View, Views } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { useSearchParams } from 'react-router';
import { useDeleteScheduleMutation, useSchedulesInRangeQuery } from '../api';
import { dateTime, SchedulesGuard } from '../components/common';
import { ScheduleDialog } from '../components/ScheduleDialog';
import type { Schedule } from '../types';

const localizer = dayjsLocalizer(dayjs);

/** The calendar's locale for the UI's language (Portuguese by default, as docs/product names the labels). */
const CULTURES: Record<string, string> = { pt: 'pt-br', en: 'en', es: 'es', tr: 'tr' };

/** What the page reads around the shown date: the month with a week either side and the agenda's 30 days. */
function rangeAround(date: Date): { start: string; end: string } {
  return {
    start: dayjs(date).startOf('month').subtract(7, 'day').toISOString(),
    end: dayjs(date).endOf('month').add(38, 'day').toISOString(),
  };
}

interface CalendarEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: Schedule;
}

/** Schedules (/schedules, docs/product/automation.md#schedules): the calendar, its dialog, `?contactId=` opening it. */
export function SchedulesPage() {
  return (
    <SchedulesGuard>
      <Schedules />
    </SchedulesGuard>
  );
}

function Schedules() {
  const { t, i18n } = useTranslation('schedules');
  const narrow = useNarrowScreen();
  const [params, setParams] = useSearchParams();
  const [date, setDate] = useState(() => new Date());
  const [view, setView] = useState<View>(() => (narrow ? Views.AGENDA : Views.MONTH));
  const range = useMemo(() => rangeAround(date), [date]);
  const { data, isLoading, error } = useSchedulesInRangeQuery(range);
  const [remove] = useDeleteScheduleMutation();
  const [dialog, setDialog] = useState<{ open: boolean; schedule: Schedule | null; contactId: number | null }>({
    open: false,
    schedule: null,
    contactId: null,
  });

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  // `?contactId=` opens the add dialog for that contact (docs/product/automation.md#schedules)
  const contactParam = Number(params.get('contactId'));
  useEffect(() => {
    if (Number.isInteger(contactParam) && contactParam > 0) setDialog({ open: true, schedule: null, contactId: contactParam });
  }, [contactParam]);

  const close = () => {
    setDialog({ open: false, schedule: null, contactId: null });
    if (params.has('contactId')) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };

  const events = useMemo<CalendarEvent[]>(
    () =>
      (data ?? []).map((schedule) => {
        const start = new Date(schedule.sendAt);
        return { id: schedule.id, title: schedule.contact.name, start, end: new Date(start.getTime() + 30 * 60_000), schedule };
      }),
    [data],
  );

  const onDelete = async (schedule: Schedule) => {
    try {
      await remove(schedule.id).unwrap();
      toast.success(t('toasts.deleted'));
    } catch (failure) {
      showError(failure);
    }
  };

  const EventCell = ({ event }: EventProps<CalendarEvent>) => (
    <Flex align="center" gap={4} style={{ minWidth: 0 }} data-testid={`schedule-${event.id}`}>
      <Tooltip title={`${dateTime(event.schedule.sendAt)} · ${t(`status.${event.schedule.status}`)} — ${event.schedule.body}`}>
        <Typography.Text ellipsis style={{ color: 'inherit', flex: 1, minWidth: 0 }}>
          {event.title}
        </Typography.Text>
      </Tooltip>
      <Button
        size="small"
        type="text"
        aria-label={t('actions.edit')}
        icon={<EditOutlined style={{ color: 'inherit' }} />}
        onClick={(click) => {
          click.stopPropagation();
          setDialog({ open: true, schedule: event.schedule, contactId: null });
        }}
      />
      <Popconfirm
        title={t('confirmDelete.title', { name: event.title })}
        description={t('confirmDelete.description')}
        okText={t('confirmDelete.ok')}
        cancelText={t('dialog.cancel')}
        onConfirm={() => onDelete(event.schedule)}
      >
        <Button
          size="small"
          type="text"
          aria-label={t('actions.delete')}
          icon={<DeleteOutlined style={{ color: 'inherit' }} />}
          onClick={(click) => click.stopPropagation()}
        />
      </Popconfirm>
    </Flex>
  );

  const messages = {
    date: t('calendar.date'),
    time: t('calendar.time'),
    event: t('calendar.event'),
    allDay: t('calendar.allDay'),
    week: t('calendar.week'),
    work_week: t('calendar.workWeek'),
    day: t('calendar.day'),
    month: t('calendar.month'),
    previous: t('calendar.previous'),
    next: t('calendar.next'),
    yesterday: t('calendar.yesterday'),
    tomorrow: t('calendar.tomorrow'),
    today: t('calendar.today'),
    agenda: t('calendar.agenda'),
    noEventsInRange: t('calendar.noEvents'),
    showMore: (count: number) => t('calendar.showMore', { count }),
  };

  return (
    <Card
      title={t('title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, schedule: null, contactId: null })}>
          {narrow ? null : t('add')}
        </Button>
      }
      styles={{ body: { padding: narrow ? 8 : 16 } }}
    >
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <>
          {events.length === 0 && (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} style={{ margin: '8px 0 16px' }} />
          )}
          <Calendar<CalendarEvent>
            localizer={localizer}
            culture={CULTURES[i18n.language?.slice(0, 2) ?? 'pt'] ?? 'pt-br'}
            events={events}
            date={date}
            view={view}
            onNavigate={setDate}
            onView={setView}
            views={[Views.MONTH, Views.WEEK, Views.WORK_WEEK, Views.DAY, Views.AGENDA]}
            messages={messages}
            components={{ event: EventCell }}
            onSelectEvent={(event) => setDialog({ open: true, schedule: event.schedule, contactId: null })}
            popup
            style={{ height: narrow ? 560 : 720 }}
          />
        </>
      )}
      <ScheduleDialog open={dialog.open} schedule={dialog.schedule} contactId={dialog.contactId} onClose={close} />
    </Card>
  );
}
