import { errorMessage, showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Flex, Form, Input, Modal, QRCode, Spin, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useRenewQrCodeMutation, useRequestPairingCodeMutation, useStartSessionMutation } from '../api';
import { formatPairingCode, pairingDigits } from '../format';
import type { Connection, ConnectionStatus } from '../types';

/** The two ways WhatsApp offers to link a device: reading a QR code, or typing a code after giving the phone number. */
export type LinkMethod = 'qr' | 'number';

/** Statuses in which the session gave up by itself: the dialog says why and offers to start again. */
const STOPPED: readonly ConnectionStatus[] = ['DISCONNECTED', 'TIMEOUT'];

/** Why a session stopped, for the dialog: the translated `sessionError`, or a plain "the session stopped". */
function stopReason(connection: Connection, fallback: string): string {
  return connection.sessionError ? errorMessage(connection.sessionError) : fallback;
}

/**
 * The QR dialog (docs/product/administration.md#screens-and-routes), live: the caller passes the connection from a list that
 * `company-{id}-whatsappSession` keeps current, so a new QR code or pairing code replaces the old one and the
 * dialog closes by itself once the connection is CONNECTED. A WhatsApp connection may also be linked by phone
 * number (`method` 'number': the tab it opens on — "Ver código" of a PAIRING row).
 */
export function QrCodeDialog({
  connection,
  method = 'qr',
  onClose,
}: {
  connection: Connection | undefined;
  method?: LinkMethod;
  onClose(): void;
}) {
  const { t } = useTranslation('channels');
  const open = connection !== undefined;
  const connected = connection?.status === 'CONNECTED';
  useEffect(() => {
    if (connected) onClose();
  }, [connected, onClose]);

  return (
    <Modal
      open={open}
      title={t('qr.dialogTitle', { name: connection?.name ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={440}
    >
      {/* inside the modal, so that each opening starts afresh (destroyOnHidden): tab, number typed, request */}
      {connection ? <LinkDevice connection={connection} method={method} /> : null}
    </Modal>
  );
}

function LinkDevice({ connection, method }: { connection: Connection; method: LinkMethod }) {
  const { t } = useTranslation('channels');
  const [tab, setTab] = useState<LinkMethod>(method);
  // pairing by number is Baileys' (whatsapp); other channels that show a QR code have only that
  if (connection.channel !== 'whatsapp') return <QrCodePane connection={connection} />;
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setTab(key as LinkMethod)}
      centered
      items={[
        { key: 'qr', label: t('qr.tabQr'), children: <QrCodePane connection={connection} /> },
        { key: 'number', label: t('qr.tabNumber'), children: <PhoneNumberPane connection={connection} /> },
      ]}
    />
  );
}

/** The QR code to read with the phone; once the session gave up (QR codes expired …), why, and a new QR code. */
function QrCodePane({ connection }: { connection: Connection }) {
  const { t } = useTranslation('channels');
  const [renewQrCode, renewing] = useRenewQrCodeMutation();
  const [startSession, starting] = useStartSessionMutation();
  const restart = async () => {
    try {
      // a new QR code is a WhatsApp (Baileys) restart; other channels just start again, as in the list
      if (connection.channel === 'whatsapp') await renewQrCode(connection.id).unwrap();
      else await startSession(connection.id).unwrap();
    } catch (failure) {
      showError(failure);
    }
  };

  let body: React.ReactNode;
  if (STOPPED.includes(connection.status)) {
    body = (
      <Alert
        type="warning"
        showIcon
        title={stopReason(connection, t('qr.stopped'))}
        action={
          <Button size="small" loading={renewing.isLoading || starting.isLoading} onClick={restart}>
            {connection.channel === 'whatsapp' ? t('actions.newQr') : t('actions.tryAgain')}
          </Button>
        }
        style={{ alignSelf: 'stretch' }}
      />
    );
  } else if (connection.qrcode) {
    body = <QRCode value={connection.qrcode} size={264} aria-label={t('qr.code')} data-testid="connection-qrcode" />;
  } else {
    body = (
      <Flex vertical align="center" gap={8} style={{ padding: 48 }}>
        <Spin />
        <Typography.Text>{connection.status === 'PAIRING' ? t('qr.pairingElsewhere') : t('qr.waiting')}</Typography.Text>
      </Flex>
    );
  }
  return (
    <Flex vertical align="center" gap={12}>
      <Typography.Text strong>{t('qr.title')}</Typography.Text>
      <Typography.Text type="secondary">{t('qr.instructions')}</Typography.Text>
      {body}
    </Flex>
  );
}

/**
 * "Connect with phone number": the company's number (country code first) → `POST …/pairing-code` → a spinner
 * until the connection comes back PAIRING with its `pairingCode` → the code, large, with the steps to type
 * it on the phone. If the session gives up meanwhile, why, and the form again.
 */
function PhoneNumberPane({ connection }: { connection: Connection }) {
  const { t } = useTranslation('channels');
  const [form] = Form.useForm<{ number: string }>();
  const [requestPairingCode, requesting] = useRequestPairingCodeMutation();
  // whether this dialog asked for a code: until the answer's session moves, the wait is ours to show
  const [requested, setRequested] = useState(false);
  const [changingNumber, setChangingNumber] = useState(false);
  const code = connection.status === 'PAIRING' ? connection.pairingCode : null;
  const stopped = STOPPED.includes(connection.status);

  const submit = async ({ number }: { number: string }) => {
    const digits = pairingDigits(number);
    if (!digits) return;
    try {
      await requestPairingCode({ id: connection.id, number: digits }).unwrap();
      setRequested(true);
      setChangingNumber(false);
    } catch (failure) {
      showError(failure);
    }
  };

  if (code && !changingNumber) return <PairingCode code={code} onChangeNumber={() => setChangingNumber(true)} />;
  if (requested && !stopped && !code) {
    return (
      <Flex vertical align="center" gap={8} style={{ padding: 32 }} data-testid="pairing-code-waiting">
        <Spin />
        <Typography.Text>{t('qr.waitingCode')}</Typography.Text>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={12}>
      <Typography.Text strong style={{ textAlign: 'center' }}>
        {t('qr.numberTitle')}
      </Typography.Text>
      <Typography.Text type="secondary">{t('qr.numberIntro')}</Typography.Text>
      {requested && stopped ? <Alert type="warning" showIcon title={stopReason(connection, t('qr.stopped'))} /> : null}
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ number: connection.number }} onFinish={submit}>
        <Form.Item
          name="number"
          label={t('qr.numberLabel')}
          extra={t('qr.numberHelp')}
          validateTrigger="onBlur"
          rules={[
            {
              validator: (_rule, value: unknown) =>
                pairingDigits(String(value ?? '')) ? Promise.resolve() : Promise.reject(new Error(t('qr.numberInvalid'))),
            },
          ]}
        >
          <Input inputMode="tel" autoComplete="tel" placeholder="5511999990000" maxLength={30} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={requesting.isLoading}>
          {t('qr.requestCode')}
        </Button>
      </Form>
    </Flex>
  );
}

/** The pairing code, large, monospaced and copyable (raw, as the phone's field takes it), and where to type it. */
function PairingCode({ code, onChangeNumber }: { code: string; onChangeNumber(): void }) {
  const { t } = useTranslation('channels');
  return (
    <Flex vertical align="center" gap={12}>
      <Typography.Text type="secondary">{t('qr.codeIntro')}</Typography.Text>
      <Typography.Text
        strong
        copyable={{ text: code, tooltips: [t('form.copy'), t('form.copied')] }}
        style={{ fontFamily: 'monospace', fontSize: 'clamp(26px, 9vw, 36px)', letterSpacing: '0.12em', whiteSpace: 'nowrap' }}
        aria-label={t('qr.pairingCode')}
        data-testid="pairing-code"
      >
        {formatPairingCode(code)}
      </Typography.Text>
      <ol style={{ margin: 0, paddingInlineStart: 20, alignSelf: 'stretch' }}>
        {(['open', 'devices', 'link', 'number'] as const).map((step) => (
          <li key={step}>
            <Typography.Text>{t(`qr.steps.${step}`)}</Typography.Text>
          </li>
        ))}
      </ol>
      <Button type="link" size="small" onClick={onChangeNumber}>
        {t('qr.changeNumber')}
      </Button>
    </Flex>
  );
}
