import { ScheduleOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { ScheduleDialog } from '../components/ScheduleDialog';

/**
 * The composer's schedule shortcut (the `composerToolbar` slot, docs/product/tickets-and-inbox.md#screens-and-routes):
 * opens the schedule dialog for the ticket's contact and connection.
 */
export default function ComposerScheduleButton({ ticket, disabled }: ComponentSlotProps['composerToolbar']) {
  const { t } = useTranslation('schedules');
  const [open, setOpen] = useState(false);
  if (ticket.isGroup || !ticket.contact.number) return null;
  return (
    <>
      <Tooltip title={t('shortcut.schedule')}>
        <Button
          type="text"
          aria-label={t('shortcut.schedule')}
          icon={<ScheduleOutlined />}
          disabled={disabled}
          onClick={() => setOpen(true)}
        />
      </Tooltip>
      <ScheduleDialog
        open={open}
        schedule={null}
        contactId={ticket.contactId}
        whatsappId={ticket.whatsappId}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
