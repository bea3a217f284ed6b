import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useMemo } from 'react';
import type { Ticket } from '../../../../shared/types';
import { useListQueuesQuery, useListUsersQuery } from '../../api/queues-users';
import { useUpdateTicketMutation } from '../../api/tickets';
import { usersOfQueue } from '../../logic/ticket-rules';

interface TransferValues {
  queueId?: number;
  userId?: number;
  msgTransfer?: string;
}

/** Props of the transfer dialog. */
export interface TransferTicketModalProps {
  ticket: Ticket | null;
  onClose(): void;
  onTransferred(ticket: Ticket): void;
}

/**
 * Transfer (docs/product/tickets-and-inbox.md#states-and-transitions): a queue is required; a user of that queue is optional (with one the ticket opens
 * with them, without one it waits in the queue); an optional message goes to the contact.
 */
export function TransferTicketModal({ ticket, onClose, onTransferred }: TransferTicketModalProps) {
  const { t } = useTranslation('inbox');
  const [form] = Form.useForm<TransferValues>();
  const queueId = Form.useWatch('queueId', form);
  const open = ticket !== null;
  const { data: queues = [], isLoading: queuesLoading } = useListQueuesQuery(undefined, { skip: !open });
  const { data: users = [], isLoading: usersLoading } = useListUsersQuery(undefined, { skip: !open });
  const [updateTicket, { isLoading }] = useUpdateTicketMutation();

  const queueOptions = useMemo(() => queues.map((queue) => ({ value: queue.id, label: queue.name })), [queues]);
  const userOptions = useMemo(
    () => usersOfQueue(users, queueId).map((user) => ({ value: user.id, label: user.name })),
    [users, queueId],
  );

  useEffect(() => {
    if (ticket) form.setFieldsValue({ queueId: ticket.queueId ?? undefined, userId: undefined, msgTransfer: '' });
  }, [ticket, form]);

  // a user picked for another queue no longer fits
  useEffect(() => {
    const userId = form.getFieldValue('userId') as number | undefined;
    if (userId !== undefined && !userOptions.some((option) => option.value === userId)) form.setFieldValue('userId', undefined);
  }, [userOptions, form]);

  const submit = async (values: TransferValues) => {
    if (!ticket || values.queueId === undefined) return;
    const message = values.msgTransfer?.trim();
    try {
      const transferred = await updateTicket({
        id: ticket.id,
        body: {
          isTransfered: true,
          queueId: values.queueId,
          userId: values.userId ?? null,
          ...(message ? { msgTransfer: message } : {}),
        },
      }).unwrap();
      onTransferred(transferred);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={open}
      title={t('tickets.transfer.title')}
      okText={t('tickets.transfer.confirm')}
      cancelText={t('tickets.common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="queueId"
          label={t('tickets.common.queue')}
          rules={[{ required: true, message: t('tickets.common.selectQueue') }]}
        >
          <Select
            options={queueOptions}
            loading={queuesLoading}
            placeholder={t('tickets.common.selectQueue')}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Form.Item name="userId" label={t('tickets.transfer.user')} extra={t('tickets.transfer.userHint')}>
          <Select
            options={userOptions}
            loading={usersLoading}
            allowClear
            placeholder={t('tickets.transfer.userPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Form.Item name="msgTransfer" label={t('tickets.transfer.message')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} placeholder={t('tickets.transfer.messagePlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
