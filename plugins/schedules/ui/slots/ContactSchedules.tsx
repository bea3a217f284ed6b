import { PlusOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Divider, List, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useContactSchedulesQuery } from '../api';
import { dateTime } from '../components/common';
import { ScheduleDialog } from '../components/ScheduleDialog';
import type { Schedule } from '../types';

/**
 * The ticket view's schedule modal (the `contactDrawer` slot): the contact's pending schedules, each opening
 * the dialog, and a button to add one.
 */
export default function ContactSchedules({ contact, ticket }: ComponentSlotProps['contactDrawer']) {
  const { t } = useTranslation('schedules');
  const { data, isLoading } = useContactSchedulesQuery(contact.id, { skip: contact.isGroup || !contact.number });
  const [dialog, setDialog] = useState<{ open: boolean; schedule: Schedule | null }>({ open: false, schedule: null });
  if (contact.isGroup || !contact.number) return null;
  const pending = (data ?? []).filter((schedule) => schedule.status === 'PENDENTE');
  return (
    <>
      <Divider plain style={{ margin: '4px 0' }}>
        {t('drawer.title')}
      </Divider>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 1 }} title={false} />
      ) : (
        <List
          size="small"
          dataSource={pending}
          locale={{ emptyText: t('drawer.empty') }}
          renderItem={(schedule) => (
            <List.Item style={{ cursor: 'pointer', paddingInline: 0 }} onClick={() => setDialog({ open: true, schedule })}>
              <Typography.Text ellipsis style={{ maxWidth: '70%' }}>
                {schedule.body}
              </Typography.Text>
              <Tag>{dateTime(schedule.sendAt)}</Tag>
            </List.Item>
          )}
        />
      )}
      <Button block icon={<PlusOutlined />} onClick={() => setDialog({ open: true, schedule: null })}>
        {t('drawer.add')}
      </Button>
      <ScheduleDialog
        open={dialog.open}
        schedule={dialog.schedule}
        contactId={contact.id}
        whatsappId={ticket?.whatsappId ?? null}
        onClose={() => setDialog({ open: false, schedule: null })}
      />
    </>
  );
}
