import { useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useChatUsersQuery, useCreateChatMutation, useUpdateChatMutation } from '../api';
import type { Chat } from '../types';

export interface ChatDialogProps {
  open: boolean;
  /** The chat to edit; a new chat without it. */
  chat?: Chat;
  onClose(): void;
  /** Called with the saved chat. */
  onSaved(chat: Chat): void;
}

/**
 * The new-chat and edit dialog (docs/product/automation.md "Internal chat"): a title and the members. Save stays
 * disabled until the title has text and at least one user is chosen; the caller is always a member.
 */
export function ChatDialog({ open, chat, onClose, onSaved }: ChatDialogProps) {
  const { t } = useTranslation('internal-chat');
  const me = useSession();
  const { data: users = [], isLoading } = useChatUsersQuery(undefined, { skip: !open });
  const [createChat, creating] = useCreateChatMutation();
  const [updateChat, updating] = useUpdateChatMutation();
  const [title, setTitle] = useState('');
  const [members, setMembers] = useState<number[]>([]);

  useEffect(() => {
    if (!open) return;
    setTitle(chat?.title ?? '');
    setMembers(chat ? chat.users.map((member) => member.userId).filter((id) => id !== me?.id) : []);
  }, [open, chat, me?.id]);

  const canSave = title.trim() !== '' && members.length > 0;
  const save = async () => {
    if (!canSave) return;
    const body = { title: title.trim(), users: members };
    // chat call failures are silent (docs/product/automation.md "Internal chat"): the dialog just stays open
    const result = chat ? await updateChat({ id: chat.id, ...body }) : await createChat(body);
    if ('data' in result && result.data) onSaved(result.data);
  };

  return (
    <Modal
      open={open}
      title={chat ? t('dialog.editTitle') : t('dialog.newTitle')}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ disabled: !canSave, loading: creating.isLoading || updating.isLoading }}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={save}>
        <Form.Item label={t('dialog.title')} required>
          <Input value={title} maxLength={100} onChange={(event) => setTitle(event.target.value)} autoFocus />
        </Form.Item>
        <Form.Item label={t('dialog.users')} required>
          <Select
            mode="multiple"
            value={members}
            onChange={setMembers}
            loading={isLoading}
            placeholder={t('dialog.usersPlaceholder')}
            optionFilterProp="label"
            options={users.filter((user) => user.id !== me?.id).map((user) => ({ value: user.id, label: user.name }))}
            aria-label={t('dialog.users')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
