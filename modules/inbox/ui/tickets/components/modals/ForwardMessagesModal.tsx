import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Form, Modal, Progress } from 'antd';
import { useState } from 'react';
import type { Contact } from '../../../../shared/types';
import { FORWARD_PAUSE_MS } from '../../../../shared/types';
import { useForwardMessageMutation } from '../../api/messages';
import { ContactSearchSelect } from './ContactSearchSelect';

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Props of the forward dialog. */
export interface ForwardMessagesModalProps {
  open: boolean;
  /** The selected messages, in conversation order. */
  messageIds: number[];
  /** Whether the agent's signature goes with them. */
  signMessage: boolean;
  onClose(): void;
  onForwarded(): void;
}

/**
 * Forwarding selected messages to a contact (docs/product/tickets-and-inbox.md#states-and-transitions), one call per message with a 900 ms pause between
 * them (docs/product/tickets-and-inbox.md#constants-and-limits) so the channel keeps their order.
 */
export function ForwardMessagesModal({ open, messageIds, signMessage, onClose, onForwarded }: ForwardMessagesModalProps) {
  const { t } = useTranslation('inbox');
  const [contact, setContact] = useState<Contact | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const [forwardMessage] = useForwardMessageMutation();

  const forward = async () => {
    if (!contact) return;
    setSent(0);
    try {
      for (const [index, messageId] of messageIds.entries()) {
        if (index > 0) await pause(FORWARD_PAUSE_MS);
        await forwardMessage({ messageId, contactId: contact.id, signMessage }).unwrap();
        setSent(index + 1);
      }
      toast.success(t('tickets.forward.done', { count: messageIds.length }));
      setContact(null);
      onForwarded();
    } catch (error) {
      showError(error);
    } finally {
      setSent(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t('tickets.forward.title', { count: messageIds.length })}
      okText={t('tickets.forward.confirm')}
      cancelText={t('tickets.common.cancel')}
      okButtonProps={{ disabled: !contact }}
      confirmLoading={sent !== null}
      onOk={forward}
      onCancel={sent === null ? onClose : undefined}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('tickets.forward.to')}>
          <ContactSearchSelect value={contact} onChange={setContact} autoFocus />
        </Form.Item>
      </Form>
      {sent !== null ? <Progress percent={Math.round((sent / Math.max(1, messageIds.length)) * 100)} size="small" /> : null}
    </Modal>
  );
}
