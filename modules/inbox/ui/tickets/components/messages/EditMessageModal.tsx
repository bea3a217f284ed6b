import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import type { Message } from '../../../../shared/types';
import { useEditMessageMutation } from '../../api/messages';
import { isSendableText } from '../../logic/outgoing';

/** Editing an own text message (docs/product/tickets-and-inbox.md#states-and-transitions, within 15 minutes; the server has the last word). */
export function EditMessageModal({
  message,
  ticketUuid,
  onClose,
}: {
  message: Message | null;
  ticketUuid: string;
  onClose(): void;
}) {
  const { t } = useTranslation('inbox');
  const [text, setText] = useState('');
  const [editMessage, { isLoading }] = useEditMessageMutation();
  useEffect(() => {
    if (message) setText(message.body);
  }, [message]);

  const save = async () => {
    if (!message || !isSendableText(text)) return;
    try {
      await editMessage({ id: message.id, ticketUuid, body: text.trim() }).unwrap();
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={message !== null}
      title={t('tickets.messages.editTitle')}
      okText={t('tickets.common.save')}
      cancelText={t('tickets.common.cancel')}
      okButtonProps={{ disabled: !isSendableText(text) || text.trim() === message?.body }}
      confirmLoading={isLoading}
      onOk={save}
      onCancel={onClose}
      destroyOnHidden
    >
      <Input.TextArea
        autoFocus
        value={text}
        onChange={(event) => setText(event.target.value)}
        autoSize={{ minRows: 2, maxRows: 8 }}
        aria-label={t('tickets.messages.editTitle')}
      />
    </Modal>
  );
}
