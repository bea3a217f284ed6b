import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  LoadingOutlined,
  QrcodeOutlined,
  SignalFilled,
} from '@ant-design/icons';
import { errorMessage, useTranslation } from '@balcao/plugin-sdk/ui';
import { Tag, Tooltip, Typography } from 'antd';
import type { ConnectionStatus } from '../types';

const LOOK: Record<ConnectionStatus, { color: string; icon: React.ReactNode }> = {
  CONNECTED: { color: 'success', icon: <CheckCircleOutlined /> },
  DISCONNECTED: { color: 'error', icon: <CloseCircleOutlined /> },
  qrcode: { color: 'processing', icon: <QrcodeOutlined /> },
  PAIRING: { color: 'warning', icon: <SignalFilled /> },
  TIMEOUT: { color: 'warning', icon: <ClockCircleOutlined /> },
  OPENING: { color: 'default', icon: <LoadingOutlined /> },
};

/**
 * A connection's status (docs/product/administration.md#states-and-transitions) as a coloured tag with its word. When the session stopped by
 * itself (`sessionError`), hovering the tag says why in full (the code's translation, `errors.*`).
 */
export function ConnectionStatusTag({ status, sessionError = null }: { status: ConnectionStatus; sessionError?: string | null }) {
  const { t } = useTranslation('channels');
  const look = LOOK[status] ?? LOOK.DISCONNECTED;
  const tag = (
    <Tag color={look.color} icon={look.icon} data-status={status}>
      {t(`status.${status}`, { defaultValue: status })}
    </Tag>
  );
  return sessionError ? <Tooltip title={errorMessage(sessionError)}>{tag}</Tooltip> : tag;
}

/**
 * Why a session stopped by itself, in a few words under its status tag (`sessionErrors.*`), so that an admin
 * sees at a glance what to do — a new QR code after the phone unlinked the device, another number after a
 * ban. A code without a short text shows its full translation (or the code itself).
 */
export function SessionErrorNote({ sessionError }: { sessionError: string | null }) {
  const { t } = useTranslation('channels');
  if (!sessionError) return null;
  return (
    <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="session-error">
      {t(`sessionErrors.${sessionError}`, { defaultValue: errorMessage(sessionError) })}
    </Typography.Text>
  );
}
