import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Popconfirm, Space } from 'antd';
import { useEffect, useState } from 'react';
import {
  useCloseImportedTicketsMutation,
  useDisconnectSessionMutation,
  useRenewQrCodeMutation,
  useStartSessionMutation,
} from '../api';
import { IMPORT_PREPARING_MS, importState } from '../format';
import type { Connection } from '../types';

/** Re-renders while a "preparing" window is open, so the state ends on time without an event. */
function useImportState(status: string | null | undefined) {
  const [now, setNow] = useState(() => Date.now());
  const state = importState(status, now);
  useEffect(() => {
    if (state !== 'preparing') return;
    const startedAt = Number(status);
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, startedAt + IMPORT_PREPARING_MS - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [state, status]);
  return state;
}

/**
 * The session buttons of a connection by status (docs/product/administration.md#screens-and-routes): qrcode → show the QR; DISCONNECTED →
 * try again and (WhatsApp) new QR; CONNECTED, PAIRING, TIMEOUT → disconnect; OPENING → a disabled "connecting" button.
 * PAIRING with a pairing code (pairing by phone number) also shows the code again. Plus the imported-tickets
 * button and preparing state when `statusImportMessages` says so.
 */
export function SessionActions({
  connection,
  onShowQr,
  onShowPairingCode,
}: {
  connection: Connection;
  onShowQr(id: number): void;
  onShowPairingCode(id: number): void;
}) {
  const { t } = useTranslation('channels');
  const [startSession, starting] = useStartSessionMutation();
  const [renewQrCode, renewing] = useRenewQrCodeMutation();
  const [disconnect, disconnecting] = useDisconnectSessionMutation();
  const [closeImported, closing] = useCloseImportedTicketsMutation();
  const imported = useImportState(connection.statusImportMessages);

  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (failure) {
      showError(failure);
    }
  };

  const { status, id } = connection;
  // only a WhatsApp (Baileys) session pairs by QR code; other channels just start again
  const pairsByQrCode = connection.channel === 'whatsapp';
  return (
    <Space wrap size={4}>
      {status === 'qrcode' ? (
        <Button size="small" type="primary" onClick={() => onShowQr(id)}>
          {t('actions.showQr')}
        </Button>
      ) : null}
      {status === 'PAIRING' && connection.pairingCode ? (
        <Button size="small" type="primary" onClick={() => onShowPairingCode(id)}>
          {t('actions.showPairingCode')}
        </Button>
      ) : null}
      {status === 'DISCONNECTED' ? (
        <>
          <Button size="small" loading={starting.isLoading} onClick={() => run(() => startSession(id).unwrap())}>
            {t('actions.tryAgain')}
          </Button>
          {pairsByQrCode ? (
            <Button
              size="small"
              loading={renewing.isLoading}
              onClick={() =>
                run(async () => {
                  await renewQrCode(id).unwrap();
                  // a new QR code is always asked for to be read: the dialog waits for it
                  onShowQr(id);
                })
              }
            >
              {t('actions.newQr')}
            </Button>
          ) : null}
        </>
      ) : null}
      {status === 'CONNECTED' || status === 'PAIRING' || status === 'TIMEOUT' ? (
        <Popconfirm
          title={t('confirm.disconnectTitle')}
          description={t('confirm.disconnect')}
          okText={t('confirm.yes')}
          cancelText={t('confirm.no')}
          onConfirm={() => run(() => disconnect(id).unwrap())}
        >
          <Button size="small" danger loading={disconnecting.isLoading}>
            {t('actions.disconnect')}
          </Button>
        </Popconfirm>
      ) : null}
      {status === 'OPENING' ? (
        <Button size="small" disabled loading>
          {t('actions.connecting')}
        </Button>
      ) : null}
      {imported === 'closeTickets' ? (
        <Popconfirm
          title={t('confirm.closeImportedTitle')}
          description={t('confirm.closeImported')}
          okText={t('confirm.yes')}
          cancelText={t('confirm.no')}
          onConfirm={() =>
            run(async () => {
              await closeImported(id).unwrap();
              toast.success(t('toasts.importedClosed'));
            })
          }
        >
          <Button size="small" loading={closing.isLoading}>
            {t('actions.closeImported')}
          </Button>
        </Popconfirm>
      ) : null}
      {imported === 'preparing' ? (
        <Button size="small" disabled loading>
          {t('actions.preparingImport')}
        </Button>
      ) : null}
    </Space>
  );
}
