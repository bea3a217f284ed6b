import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  LoadingOutlined,
  QrcodeOutlined,
  SignalFilled,
} from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Tag } from 'antd';
import type { ConnectionStatus } from '../types';

const LOOK: Record<ConnectionStatus, { color: string; icon: React.ReactNode }> = {
  CONNECTED: { color: 'success', icon: <CheckCircleOutlined /> },
  DISCONNECTED: { color: 'error', icon: <CloseCircleOutlined /> },
  qrcode: { color: 'processing', icon: <QrcodeOutlined /> },
  PAIRING: { color: 'warning', icon: <SignalFilled /> },
  TIMEOUT: { color: 'warning', icon: <ClockCircleOutlined /> },
  OPENING: { color: 'default', icon: <LoadingOutlined /> },
};

/** A connection's status (2-administration §4) as a coloured tag with its word. */
export function ConnectionStatusTag({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation('channels');
  const look = LOOK[status] ?? LOOK.DISCONNECTED;
  return (
    <Tag color={look.color} icon={look.icon} data-status={status}>
      {t(`status.${status}`, { defaultValue: status })}
    </Tag>
  );
}
