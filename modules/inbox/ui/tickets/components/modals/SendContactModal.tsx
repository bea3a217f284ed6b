import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Form, Modal } from 'antd';
import { useState } from 'react';
import type { Contact } from '../../../../shared/types';
import type { VCardContact } from '../../logic/outgoing';
import { ContactSearchSelect } from './ContactSearchSelect';

/** Sending a contact card (vCard, docs/product/tickets-and-inbox.md#screens-and-routes): pick a contact with a number. */
export function SendContactModal({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose(): void;
  onSend(contact: VCardContact): Promise<void> | void;
}) {
  const { t } = useTranslation('inbox');
  const [contact, setContact] = useState<Contact | null>(null);
  const [sending, setSending] = useState(false);
  const usable = contact !== null && Boolean(contact.number);

  const send = async () => {
    if (!contact?.number) return;
    setSending(true);
    try {
      await onSend({ name: contact.name, number: contact.number });
      setContact(null);
      onClose();
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('tickets.sendContact.title')}
      okText={t('tickets.sendContact.confirm')}
      cancelText={t('tickets.common.cancel')}
      okButtonProps={{ disabled: !usable }}
      confirmLoading={sending}
      onOk={send}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={t('tickets.newTicket.contact')}
          validateStatus={contact && !contact.number ? 'error' : undefined}
          help={contact && !contact.number ? t('tickets.newTicket.numberRequired') : undefined}
        >
          <ContactSearchSelect value={contact} onChange={setContact} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
