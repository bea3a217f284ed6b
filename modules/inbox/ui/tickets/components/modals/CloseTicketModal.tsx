import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Modal, Typography } from 'antd';
import type { Ticket } from '../../../../shared/types';

/** Props of the resolve dialog. */
export interface CloseTicketModalProps {
  ticket: Ticket | null;
  busy: boolean;
  onClose(): void;
  onResolve(ticket: Ticket, sendFarewellMessage: boolean): void;
}

/** Resolving a ticket (docs/product/tickets-and-inbox.md#states-and-transitions): close it with or without the farewell message. */
export function CloseTicketModal({ ticket, busy, onClose, onResolve }: CloseTicketModalProps) {
  const { t } = useTranslation('inbox');
  return (
    <Modal
      open={ticket !== null}
      title={t('tickets.close.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Flex gap={8} justify="end" wrap>
          <Button onClick={onClose}>{t('tickets.common.cancel')}</Button>
          <Button loading={busy} onClick={() => ticket && onResolve(ticket, false)}>
            {t('tickets.close.withoutFarewell')}
          </Button>
          <Button type="primary" loading={busy} onClick={() => ticket && onResolve(ticket, true)}>
            {t('tickets.close.withFarewell')}
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph>{t('tickets.close.text', { name: ticket?.contact.name ?? '' })}</Typography.Paragraph>
    </Modal>
  );
}
