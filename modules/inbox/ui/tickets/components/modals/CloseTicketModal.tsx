import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Form, Modal, Radio, Typography } from 'antd';
import type { RatingChoice, Ticket } from '../../../../shared/types';

/** What the agent chose: the farewell and, when the rating applies, whether to ask for it. */
export interface ResolveChoice {
  sendFarewellMessage: boolean;
  ratingId?: RatingChoice;
}

/** Props of the resolve dialog. */
export interface CloseTicketModalProps {
  ticket: Ticket | null;
  /** The company asks for ratings and this ticket would get the question (`ratingApplies`). */
  asksRating: boolean;
  busy: boolean;
  onClose(): void;
  onResolve(ticket: Ticket, choice: ResolveChoice): void;
}

/**
 * Resolving a ticket (docs/product/tickets-and-inbox.md#states-and-transitions): close it with or without the
 * farewell message. When the rating applies it is the rating modal (docs/product/tickets-and-inbox.md#validation
 * Rating): the agent must choose (`ratingId`, "Avaliação obrigatória") between asking the contact for a 0–10
 * rating — the ticket closes on the answer and the farewell follows it — and closing without asking, with or
 * without the farewell.
 */
export function CloseTicketModal({ ticket, asksRating, busy, onClose, onResolve }: CloseTicketModalProps) {
  const { t } = useTranslation('inbox');
  const [form] = Form.useForm<{ ratingId?: RatingChoice }>();
  const ratingId = Form.useWatch('ratingId', form);
  const rating = asksRating && ticket !== null;

  const resolve = async (sendFarewellMessage: boolean) => {
    if (!ticket) return;
    if (!rating) {
      onResolve(ticket, { sendFarewellMessage });
      return;
    }
    // the form shows 'Avaliação obrigatória' under the choice and nothing is sent
    const values = await form.validateFields().catch(() => null);
    if (!values?.ratingId) return;
    onResolve(ticket, { sendFarewellMessage, ratingId: values.ratingId });
  };

  const farewellButtons = (
    <>
      <Button loading={busy} onClick={() => void resolve(false)}>
        {t('tickets.close.withoutFarewell')}
      </Button>
      <Button type="primary" loading={busy} onClick={() => void resolve(true)}>
        {t('tickets.close.withFarewell')}
      </Button>
    </>
  );

  return (
    <Modal
      open={ticket !== null}
      title={rating ? t('tickets.close.rating.title') : t('tickets.close.title')}
      onCancel={onClose}
      destroyOnHidden
      afterClose={() => form.resetFields()}
      footer={
        <Flex gap={8} justify="end" wrap>
          <Button onClick={onClose}>{t('tickets.common.cancel')}</Button>
          {rating && ratingId !== 'none' ? (
            // asked, the farewell comes after the contact's answer (docs/channels/lifecycle.md "Rating")
            <Button type="primary" loading={busy} onClick={() => void resolve(false)}>
              {t('tickets.close.rating.resolve')}
            </Button>
          ) : (
            farewellButtons
          )}
        </Flex>
      }
    >
      {rating ? (
        <Form form={form} layout="vertical" requiredMark={false}>
          <Typography.Paragraph>{t('tickets.close.rating.intro', { name: ticket?.contact.name ?? '' })}</Typography.Paragraph>
          <Form.Item
            name="ratingId"
            label={t('tickets.close.rating.label')}
            rules={[{ required: true, message: t('tickets.close.rating.required') }]}
          >
            <Radio.Group
              style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
              options={[
                { value: 'nps', label: t('tickets.close.rating.nps') },
                { value: 'none', label: t('tickets.close.rating.none') },
              ]}
            />
          </Form.Item>
          {ratingId === 'none' ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('tickets.close.text', { name: ticket?.contact.name ?? '' })}
            </Typography.Paragraph>
          ) : null}
        </Form>
      ) : (
        <Typography.Paragraph>{t('tickets.close.text', { name: ticket?.contact.name ?? '' })}</Typography.Paragraph>
      )}
    </Modal>
  );
}
