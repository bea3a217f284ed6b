import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Modal, Typography } from 'antd';

/** Who holds a ticket: the existing ticket of a contact, or a reopened ticket that went to someone else. */
export interface TicketHolder {
  /** `existing`: creating a ticket that already exists; `reopened`: the reopened ticket is another user's. */
  kind: 'existing' | 'reopened';
  userName: string | null;
  queueName: string | null;
}

/** The info dialog naming the user and queue that hold a ticket (docs/product/tickets-and-inbox.md#states-and-transitions). */
export function TicketHolderDialog({ holder, onClose }: { holder: TicketHolder | null; onClose(): void }) {
  const { t } = useTranslation('inbox');
  const user = holder?.userName ?? t('tickets.holder.nobody');
  const queue = holder?.queueName ?? t('tickets.common.noQueue');
  return (
    <Modal
      open={holder !== null}
      title={holder?.kind === 'reopened' ? t('tickets.holder.reopenedTitle') : t('tickets.holder.existingTitle')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('tickets.common.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {holder?.kind === 'reopened'
          ? t('tickets.holder.reopenedText', { user, queue })
          : t('tickets.holder.existingText', { user, queue })}
      </Typography.Paragraph>
    </Modal>
  );
}
