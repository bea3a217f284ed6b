import { PlusOutlined } from '@ant-design/icons';
import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Modal, Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { Contact, Ticket } from '../../../../shared/types';
import { useConnections, useListQueuesQuery } from '../../api/queues-users';
import { useCreateTicketMutation } from '../../api/tickets';
import { useViewer } from '../../hooks/useViewer';
import { existingTicketOf, preselectedQueue } from '../../logic/ticket-rules';
import { ContactFormModal } from './ContactFormModal';
import { ContactSearchSelect } from './ContactSearchSelect';
import type { TicketHolder } from './TicketHolderDialog';

interface NewTicketValues {
  contact?: Contact | null;
  queueId?: number;
  whatsappId?: number;
}

/** Props of the new-ticket dialog. */
export interface NewTicketModalProps {
  open: boolean;
  /** The contact search to start with (a contact card's number). */
  initialSearch?: string;
  onClose(): void;
  /** The ticket to open: the created one, or the user's own existing one. */
  onOpenTicket(uuid: string): void;
  /** Another user holds the contact's ticket (409 ERR_OTHER_OPEN_TICKET). */
  onHeldByOther(holder: TicketHolder): void;
}

/**
 * A new ticket (docs/product/tickets-and-inbox.md#states-and-transitions, #validation): a contact with a number (search from the third character, or a new one),
 * a queue ('Selecione uma fila'; a single-queue user's preselected) and a connection when the company has
 * any. An existing ticket of the contact opens when it is the user's own; another user's is named.
 */
export function NewTicketModal({ open, initialSearch, onClose, onOpenTicket, onHeldByOther }: NewTicketModalProps) {
  const { t } = useTranslation('inbox');
  const viewer = useViewer();
  const [form] = Form.useForm<NewTicketValues>();
  const [contactFormOpen, setContactFormOpen] = useState(false);
  const [createTicket, { isLoading }] = useCreateTicketMutation();
  const needsAllQueues = viewer.user.queues.length === 0 && viewer.isAdmin;
  const { data: allQueues = [] } = useListQueuesQuery(undefined, { skip: !open || !needsAllQueues });
  const connections = useConnections(open);
  const queues = needsAllQueues ? allQueues : viewer.user.queues;
  const queueOptions = useMemo(() => queues.map((queue) => ({ value: queue.id, label: queue.name })), [queues]);
  const connectionOptions = useMemo(
    () => connections.map((connection) => ({ value: connection.id, label: connection.name })),
    [connections],
  );

  // a contact card's number starts the new contact; kept stable so the contact form isn't reset on each render
  const newContactInitial = useMemo(
    () => ({ number: /^\+?\d[\d\s-]*$/.test(initialSearch ?? '') ? initialSearch : '' }),
    [initialSearch],
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ queueId: preselectedQueue(null, viewer.list.queueIds) });
  }, [open, form, viewer.list.queueIds]);

  useEffect(() => {
    if (open && connections.length === 1) form.setFieldValue('whatsappId', connections[0]?.id);
  }, [open, connections, form]);

  const submit = async (values: NewTicketValues) => {
    const contact = values.contact;
    if (!contact) return;
    try {
      const ticket: Ticket = await createTicket({
        contactId: contact.id,
        userId: viewer.user.id,
        status: 'open',
        queueId: values.queueId ?? null,
        ...(values.whatsappId !== undefined ? { whatsappId: values.whatsappId } : {}),
      }).unwrap();
      onClose();
      onOpenTicket(ticket.uuid);
    } catch (error) {
      const existing = existingTicketOf(error);
      if (!existing) {
        showError(error);
        return;
      }
      onClose();
      if (existing.userId === viewer.user.id) onOpenTicket(existing.uuid);
      else onHeldByOther({ kind: 'existing', userName: existing.userName, queueName: existing.queueName });
    }
  };

  return (
    <>
      <Modal
        open={open}
        title={t('tickets.newTicket.title')}
        okText={t('tickets.newTicket.confirm')}
        cancelText={t('tickets.common.cancel')}
        onOk={() => form.submit()}
        onCancel={onClose}
        confirmLoading={isLoading}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item label={t('tickets.newTicket.contact')} required>
            <Flex gap={8}>
              <Form.Item
                name="contact"
                noStyle
                rules={[
                  { required: true, message: t('tickets.newTicket.contactRequired') },
                  {
                    validator: (_rule, contact?: Contact | null) =>
                      contact && !contact.number && !contact.isGroup
                        ? Promise.reject(new Error(t('tickets.newTicket.numberRequired')))
                        : Promise.resolve(),
                  },
                ]}
              >
                <ContactSearchSelect initialSearch={initialSearch} autoFocus />
              </Form.Item>
              <Button
                icon={<PlusOutlined />}
                aria-label={t('tickets.newTicket.addContact')}
                title={t('tickets.newTicket.addContact')}
                onClick={() => setContactFormOpen(true)}
              />
            </Flex>
          </Form.Item>
          <Form.Item
            name="queueId"
            label={t('tickets.common.queue')}
            rules={[{ required: true, message: t('tickets.common.selectQueue') }]}
          >
            <Select
              options={queueOptions}
              placeholder={t('tickets.common.selectQueue')}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
          {connectionOptions.length > 0 ? (
            <Form.Item
              name="whatsappId"
              label={t('tickets.newTicket.connection')}
              rules={[{ required: true, message: t('tickets.newTicket.connectionRequired') }]}
            >
              <Select options={connectionOptions} placeholder={t('tickets.newTicket.connectionRequired')} />
            </Form.Item>
          ) : null}
        </Form>
      </Modal>
      <ContactFormModal
        open={contactFormOpen}
        initial={newContactInitial}
        onClose={() => setContactFormOpen(false)}
        onSaved={(contact) => form.setFieldsValue({ contact })}
      />
    </>
  );
}
