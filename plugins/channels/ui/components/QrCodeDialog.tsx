import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Flex, Modal, QRCode, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import type { Connection } from '../types';

/**
 * The QR dialog (2-administration §2): the connection's `qrcode`, live — the caller passes the connection
 * from a list that `company-{id}-whatsappSession` keeps current, so a new code replaces the old one and the
 * dialog closes by itself once the code is read (the session leaves qrcode and the code is cleared).
 */
export function QrCodeDialog({ connection, onClose }: { connection: Connection | undefined; onClose(): void }) {
  const { t } = useTranslation('channels');
  const open = connection !== undefined;
  const read = connection !== undefined && connection.status !== 'qrcode' && connection.qrcode === '';
  useEffect(() => {
    if (read) onClose();
  }, [read, onClose]);

  return (
    <Modal open={open} title={t('qr.title')} onCancel={onClose} footer={null} destroyOnHidden width={380}>
      <Flex vertical align="center" gap={12}>
        <Typography.Text type="secondary">{t('qr.instructions')}</Typography.Text>
        {connection?.qrcode ? (
          <QRCode value={connection.qrcode} size={264} aria-label={t('qr.code')} data-testid="connection-qrcode" />
        ) : (
          <Flex vertical align="center" gap={8} style={{ padding: 48 }}>
            <Spin />
            <Typography.Text>{t('qr.waiting')}</Typography.Text>
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}
