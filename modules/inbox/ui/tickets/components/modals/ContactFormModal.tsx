import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import type { Contact, ContactExtraInfo } from '../../../../shared/types';
import { useCreateContactMutation, useUpdateContactMutation } from '../../../directory/api/contacts';
import { isMaskedNumber, validateContactNumber } from '../../../directory/contacts/validation';

interface ContactValues {
  name: string;
  number: string;
  email?: string;
  extraInfo?: ContactExtraInfo[];
}

/** Props of the contact dialog. */
export interface ContactFormModalProps {
  open: boolean;
  /** The contact to edit; none to create one. */
  contact?: Contact | null;
  /** What a new contact starts with (a contact card's name and number). */
  initial?: Partial<ContactValues>;
  onClose(): void;
  onSaved?(contact: Contact): void;
}

/**
 * The contact dialog of the ticket area (docs/product/tickets-and-inbox.md#validation): name 2 to 50 characters, number 8 to 50 digits, a valid
 * e-mail, and extra fields. A number masked for LGPD can't be edited and is sent back as shown (the server
 * keeps the stored one); a contact stored without a number (webchat, Instagram, Facebook) may keep none.
 */
export function ContactFormModal({ open, contact, initial, onClose, onSaved }: ContactFormModalProps) {
  const { t } = useTranslation('inbox');
  const [form] = Form.useForm<ContactValues>();
  const [createContact, { isLoading: creating }] = useCreateContactMutation();
  const [updateContact, { isLoading: updating }] = useUpdateContactMutation();
  const maskedNumber = !!contact && isMaskedNumber(contact.number);
  const numberless = !!contact && contact.number === null;

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({
      name: contact?.name ?? initial?.name ?? '',
      number: contact?.number ?? initial?.number ?? '',
      email: contact?.email ?? '',
      extraInfo: contact?.extraInfo ?? [],
    });
  }, [open, contact, initial, form]);

  const submit = async (values: ContactValues) => {
    const digits = (values.number ?? '').replace(/\D/g, '');
    const body = {
      name: values.name.trim(),
      // the API requires the number: null keeps a contact without one
      number: maskedNumber ? (contact?.number ?? null) : numberless && !digits ? null : digits,
      email: values.email?.trim() ?? '',
      extraInfo: (values.extraInfo ?? []).filter((field) => field.name?.trim()),
    };
    try {
      const saved = contact ? await updateContact({ id: contact.id, ...body }).unwrap() : await createContact(body).unwrap();
      toast.success(t('tickets.contactForm.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      open={open}
      title={contact ? t('tickets.contactForm.editTitle') : t('tickets.contactForm.addTitle')}
      okText={t('tickets.common.save')}
      cancelText={t('tickets.common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={creating || updating}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('tickets.contactForm.name')}
          rules={[
            { required: true, whitespace: true, message: t('tickets.validation.required') },
            { min: 2, message: t('tickets.validation.tooShort') },
            { max: 50, message: t('tickets.validation.tooLong') },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="number"
          label={t('tickets.contactForm.number')}
          extra={maskedNumber ? t('contacts.dialog.maskedNumber') : t('tickets.contactForm.numberHint')}
          rules={
            maskedNumber
              ? []
              : [
                  {
                    validator: async (_rule, value: string | null) => {
                      const issue = validateContactNumber(value, { optional: numberless });
                      if (issue) throw new Error(t(`tickets.validation.${issue}`));
                    },
                  },
                ]
          }
        >
          <Input inputMode="tel" placeholder="5511999999999" disabled={maskedNumber} />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('tickets.contactForm.email')}
          rules={[{ type: 'email', message: t('tickets.validation.email') }]}
        >
          <Input type="email" />
        </Form.Item>
        <Form.List name="extraInfo">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Flex key={field.key} gap={8} align="baseline">
                  <Form.Item
                    name={[field.name, 'name']}
                    rules={[{ required: true, message: t('tickets.validation.required') }]}
                    style={{ flex: 1 }}
                  >
                    <Input placeholder={t('tickets.contactForm.extraName')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'value']} style={{ flex: 1 }}>
                    <Input placeholder={t('tickets.contactForm.extraValue')} />
                  </Form.Item>
                  <Button
                    type="text"
                    aria-label={t('tickets.contactForm.removeExtra')}
                    icon={<MinusCircleOutlined />}
                    onClick={() => remove(field.name)}
                  />
                </Flex>
              ))}
              <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })}>
                {t('tickets.contactForm.addExtra')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
