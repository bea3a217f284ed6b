import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Form, Modal, Select } from 'antd';
import { useEffect, useMemo } from 'react';
import type { Ticket } from '../../../../shared/types';
import { useListQueuesQuery } from '../../api/queues-users';
import { useUpdateTicketMutation } from '../../api/tickets';
import { useViewer } from '../../hooks/useViewer';
import { preselectedQueue } from '../../logic/ticket-rules';

/** Props of the accept dialog. */
export interface AcceptTicketModalProps {
  /** The ticket to accept; null when closed. */
  ticket: Ticket | null;
  onClose(): void;
  onAccepted(ticket: Ticket): void;
}

/**
 * Accepting a ticket without a queue (docs/product/tickets-and-inbox.md#states-and-transitions): the user picks one of their queues (their only queue
 * preselected), then the ticket opens with them.
 */
export function AcceptTicketModal({ ticket, onClose, onAccepted }: AcceptTicketModalProps) {
  const { t } = useTranslation('inbox');
  const viewer = useViewer();
  const [form] = Form.useForm<{ queueId?: number }>();
  const [updateTicket, { isLoading }] = useUpdateTicketMutation();
  // admins without queues of their own may accept into any queue of the company
  const needsAllQueues = viewer.user.queues.length === 0 && viewer.isAdmin;
  const { data: allQueues = [] } = useListQueuesQuery(undefined, { skip: !ticket || !needsAllQueues });
  const queues = needsAllQueues ? allQueues : viewer.user.queues;
  const options = useMemo(() => queues.map((queue) => ({ value: queue.id, label: queue.name })), [queues]);

  useEffect(() => {
    if (ticket) form.setFieldsValue({ queueId: preselectedQueue(ticket.queueId, viewer.list.queueIds) });
  }, [ticket, form, viewer.list.queueIds]);

  const submit = async ({ queueId }: { queueId?: number }) => {
    if (!ticket) return;
    try {
      const accepted = await updateTicket({ id: ticket.id, body: { status: 'open', userId: viewer.user.id, queueId } }).unwrap();
      onAccepted(accepted);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={ticket !== null}
      title={t('tickets.accept.title')}
      okText={t('tickets.accept.confirm')}
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
          <Select options={options} placeholder={t('tickets.common.selectQueue')} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
