import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { errorCodeOf, errorMessage, showError, skipToken, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Input, Modal, Result, Skeleton, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { Contact } from '../../../shared/types';
import { type ContactBody, useCreateContactMutation, useGetContactQuery, useUpdateContactMutation } from '../api/contacts';
import {
  type ContactIssue,
  isMaskedNumber,
  validateContactEmail,
  validateContactName,
  validateContactNumber,
} from './validation';

export interface ContactDialogProps {
  open: boolean;
  /** The contact to edit; null adds one. */
  contactId: number | null;
  onClose(): void;
  /** Called with the saved contact (after the success toast). */
  onSaved?(contact: Contact): void;
  /** Values of a new contact (a number typed elsewhere). */
  initialValues?: Partial<ContactBody>;
}

interface ContactFormValues {
  name: string;
  number: string;
  email: string;
  disableBot: boolean;
  extraInfo: Array<{ id?: number; name: string; value: string }>;
}

/** The contacts dialog (docs/product/tickets-and-inbox.md#validation): name (2–250), number (8–50 digits), e-mail, extra info, bot switch. */
export function ContactDialog({ open, contactId, onClose, onSaved, initialValues }: ContactDialogProps) {
  const { t } = useTranslation('inbox');
  const editing = contactId !== null;
  const {
    data: contact,
    isFetching,
    isError,
    refetch,
  } = useGetContactQuery(open && editing ? contactId : skipToken, {
    refetchOnMountOrArgChange: true,
  });
  // a contact that couldn't be loaded says so and offers to try again, instead of a skeleton for ever
  const failed = editing && isError && !isFetching;
  const loading = editing && !failed && (isFetching || !contact || contact.id !== contactId);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t(editing ? 'contacts.dialog.editTitle' : 'contacts.dialog.addTitle')}
      footer={null}
      destroyOnHidden
      width={560}
    >
      {failed ? (
        <Result
          status="warning"
          title={t('contacts.dialog.loadError')}
          extra={
            <Button type="primary" onClick={() => void refetch()}>
              {t('contacts.dialog.retry')}
            </Button>
          }
        />
      ) : loading ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : (
        <ContactForm
          key={contact?.id ?? 'new'}
          contact={editing ? (contact ?? null) : null}
          initialValues={initialValues}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
    </Modal>
  );
}

function ContactForm({
  contact,
  initialValues,
  onClose,
  onSaved,
}: {
  contact: Contact | null;
  initialValues?: Partial<ContactBody>;
  onClose(): void;
  onSaved?(contact: Contact): void;
}) {
  const { t } = useTranslation('inbox');
  const [form] = Form.useForm<ContactFormValues>();
  const [createContact, creating] = useCreateContactMutation();
  const [updateContact, updating] = useUpdateContactMutation();
  const maskedNumber = contact !== null && isMaskedNumber(contact.number);
  // a contact stored without a number (webchat, Instagram, Facebook) may keep none
  const numberless = contact !== null && contact.number === null;

  const rule = (check: (value: string) => ContactIssue | null): Rule => ({
    validator: async (_rule, value: string) => {
      const issue = check(value);
      if (issue) throw new Error(t(`contacts.validation.${issue}`));
    },
  });

  const submit = async (values: ContactFormValues) => {
    const typedNumber = (values.number ?? '').trim();
    const body: ContactBody = {
      name: values.name.trim(),
      // the API requires the number: a number masked for LGPD is sent back as shown (the server keeps the
      // stored one), and a contact without a number left empty keeps none
      number: maskedNumber ? (contact?.number ?? null) : numberless && !typedNumber ? null : typedNumber,
      email: values.email?.trim() ?? '',
      disableBot: values.disableBot,
      extraInfo: (values.extraInfo ?? [])
        .filter((info) => info?.name?.trim() || info?.value?.trim())
        .map((info) => ({ ...(info.id ? { id: info.id } : {}), name: info.name?.trim() ?? '', value: info.value?.trim() ?? '' })),
    };
    try {
      const saved = contact ? await updateContact({ id: contact.id, ...body }).unwrap() : await createContact(body).unwrap();
      toast.success(t('contacts.toasts.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      if (errorCodeOf(error) === 'ERR_DUPLICATED_CONTACT') {
        form.setFields([{ name: 'number', errors: [errorMessage(error)] }]);
      }
      showError(error);
    }
  };

  return (
    <Form<ContactFormValues>
      form={form}
      layout="vertical"
      onFinish={submit}
      initialValues={{
        name: contact?.name ?? initialValues?.name ?? '',
        number: contact?.number ?? initialValues?.number ?? '',
        email: contact?.email ?? initialValues?.email ?? '',
        disableBot: contact?.disableBot ?? initialValues?.disableBot ?? false,
        extraInfo: contact?.extraInfo ?? initialValues?.extraInfo ?? [],
      }}
    >
      <Typography.Text strong>{t('contacts.dialog.data')}</Typography.Text>
      <Flex wrap gap={12} style={{ marginTop: 8 }}>
        <Form.Item
          name="name"
          label={t('contacts.fields.name')}
          rules={[rule(validateContactName)]}
          style={{ flex: '1 1 220px' }}
        >
          <Input autoFocus autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="number"
          label={t('contacts.fields.number')}
          rules={maskedNumber ? [] : [rule((value) => validateContactNumber(value, { optional: numberless }))]}
          extra={maskedNumber ? t('contacts.dialog.maskedNumber') : undefined}
          style={{ flex: '1 1 200px' }}
        >
          <Input disabled={maskedNumber} placeholder="5541998608485" autoComplete="off" inputMode="tel" />
        </Form.Item>
      </Flex>
      <Form.Item name="email" label={t('contacts.fields.email')} rules={[rule(validateContactEmail)]}>
        <Input type="email" placeholder={t('contacts.dialog.emailPlaceholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item name="disableBot" label={t('contacts.fields.disableBot')} valuePropName="checked">
        <Switch />
      </Form.Item>

      <Typography.Text strong>{t('contacts.dialog.extraInfo')}</Typography.Text>
      <Form.List name="extraInfo">
        {(fields, { add, remove }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map(({ key, name }) => (
              <Flex key={key} gap={8} align="start" wrap>
                <Form.Item
                  name={[name, 'name']}
                  style={{ flex: '1 1 160px' }}
                  rules={[{ required: true, whitespace: true, message: t('contacts.validation.required') }]}
                >
                  <Input placeholder={t('contacts.dialog.extraName')} aria-label={t('contacts.dialog.extraName')} />
                </Form.Item>
                <Form.Item name={[name, 'value']} style={{ flex: '2 1 200px' }}>
                  <Input placeholder={t('contacts.dialog.extraValue')} aria-label={t('contacts.dialog.extraValue')} />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  onClick={() => remove(name)}
                  aria-label={t('contacts.dialog.removeExtra')}
                  title={t('contacts.dialog.removeExtra')}
                />
              </Flex>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })} block>
              {t('contacts.dialog.addExtra')}
            </Button>
          </div>
        )}
      </Form.List>

      <Flex justify="end" gap={8} style={{ marginTop: 24 }}>
        <Button onClick={onClose}>{t('contacts.dialog.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
          {t(contact ? 'contacts.dialog.save' : 'contacts.dialog.add')}
        </Button>
      </Flex>
    </Form>
  );
}
