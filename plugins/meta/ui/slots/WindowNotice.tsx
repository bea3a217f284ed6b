import { FileTextOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, errorMessage, showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Empty, Flex, Form, Input, Modal, Select, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { type Template, useMetaTemplatesQuery, useMetaTicketWindowQuery, useSendMetaTemplateMutation } from '../api';

/**
 * The composer's notice on a WhatsApp Cloud ticket whose 24-hour window is closed (`composerNotice`,
 * docs/meta.md "The 24-hour window"): why free text can't go, and the account's approved templates to
 * send instead. Other channels, and open windows, show nothing.
 */
export default function WindowNotice({ ticket }: ComponentSlotProps['composerNotice']) {
  if (ticket.channel !== 'whatsappapi' || ticket.isGroup) return null;
  return <ClosedWindow ticket={ticket} />;
}

function ClosedWindow({ ticket }: ComponentSlotProps['composerNotice']) {
  const { t } = useTranslation('meta');
  const [picking, setPicking] = useState(false);
  // a minute's poll: a window that closes while the ticket is on screen says so without a reload
  const { data: state } = useMetaTicketWindowQuery(
    { ticketId: ticket.id, updatedAt: ticket.updatedAt },
    { pollingInterval: 60_000 },
  );
  if (!state?.windowed || state.open || state.whatsappId === null) return null;
  return (
    <div data-testid="meta-window-closed" style={{ padding: '8px 8px 0' }}>
      <Alert
        type="warning"
        showIcon
        title={t('window.closedTitle')}
        description={state.lastInboundAt ? t('window.closed') : t('window.never')}
        action={
          <Button size="small" icon={<FileTextOutlined />} disabled={ticket.status !== 'open'} onClick={() => setPicking(true)}>
            {t('window.sendTemplate')}
          </Button>
        }
      />
      {picking ? <TemplateDialog whatsappId={state.whatsappId} ticketId={ticket.id} onClose={() => setPicking(false)} /> : null}
    </div>
  );
}

const keyOf = (template: Template) => `${template.name}|${template.language}`;

function TemplateDialog({ whatsappId, ticketId, onClose }: { whatsappId: number; ticketId: number; onClose(): void }) {
  const { t } = useTranslation('meta');
  const { data, isLoading, isError, error } = useMetaTemplatesQuery(whatsappId);
  const [send, sending] = useSendMetaTemplateMutation();
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const [variables, setVariables] = useState<string[]>([]);
  const templates = data?.templates ?? [];
  const chosen = templates.find((template) => keyOf(template) === chosenKey) ?? null;
  const preview = useMemo(
    () => chosen?.body.replace(/\{\{(\d+)\}\}/g, (whole, index: string) => variables[Number(index) - 1]?.trim() || whole) ?? '',
    [chosen, variables],
  );
  const complete = chosen !== null && variables.length === chosen.variables && variables.every((value) => value.trim());

  const submit = async () => {
    if (!chosen || !complete) return;
    try {
      await send({
        whatsappId,
        ticketId,
        name: chosen.name,
        language: chosen.language,
        variables: variables.map((v) => v.trim()),
      }).unwrap();
      toast.success(t('templates.sent'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Modal
      open
      title={t('templates.title')}
      onCancel={onClose}
      okText={t('templates.send')}
      cancelText={t('templates.cancel')}
      okButtonProps={{ disabled: !complete, loading: sending.isLoading }}
      onOk={submit}
      destroyOnHidden
    >
      {isLoading ? (
        <Spin />
      ) : isError ? (
        <Alert type="error" showIcon title={errorMessage(error)} />
      ) : templates.length === 0 ? (
        <Empty description={t('templates.none')} />
      ) : (
        <Form layout="vertical">
          <Form.Item label={t('templates.template')}>
            <Select
              aria-label={t('templates.template')}
              value={chosenKey}
              onChange={(value: string) => {
                const template = templates.find((candidate) => keyOf(candidate) === value);
                setChosenKey(value);
                setVariables(Array.from({ length: template?.variables ?? 0 }, () => ''));
              }}
              options={templates.map((template) => ({
                value: keyOf(template),
                label: `${template.name} (${template.language})`,
              }))}
              placeholder={t('templates.choose')}
            />
          </Form.Item>
          {variables.map((value, index) => (
            <Form.Item key={index} label={t('templates.variable', { number: index + 1 })}>
              <Input
                aria-label={t('templates.variable', { number: index + 1 })}
                value={value}
                maxLength={1024}
                onChange={(event) =>
                  setVariables((current) => current.map((old, at) => (at === index ? event.target.value : old)))
                }
              />
            </Form.Item>
          ))}
          {chosen ? (
            <Flex vertical gap={4}>
              <Typography.Text type="secondary">{t('templates.preview')}</Typography.Text>
              <Typography.Paragraph data-testid="meta-template-preview" style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
                {preview}
              </Typography.Paragraph>
            </Flex>
          ) : null}
        </Form>
      )}
    </Modal>
  );
}
