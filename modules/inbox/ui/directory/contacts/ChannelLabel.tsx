import { FacebookOutlined, GlobalOutlined, InstagramOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Space, Typography } from 'antd';
import type { Channel } from '../../../shared/types';

const ICONS: Record<Channel, React.ReactNode> = {
  whatsapp: <WhatsAppOutlined style={{ color: '#25D366' }} />,
  whatsappapi: <WhatsAppOutlined style={{ color: '#128C7E' }} />,
  facebook: <FacebookOutlined style={{ color: '#1877F2' }} />,
  instagram: <InstagramOutlined style={{ color: '#E4405F' }} />,
  webchat: <GlobalOutlined />,
};

/** A contact's channel: its icon, the channel's name and the connection's, when there is one. */
export function ChannelLabel({ channel, connection }: { channel: Channel; connection?: string | null }) {
  const { t } = useTranslation('inbox');
  return (
    <Space size={6}>
      {ICONS[channel] ?? <GlobalOutlined />}
      <span>{t(`contacts.channels.${channel}`, { defaultValue: channel })}</span>
      {connection ? <Typography.Text type="secondary">({connection})</Typography.Text> : null}
    </Space>
  );
}
