import { FacebookFilled, InstagramOutlined, MessageOutlined, WhatsAppOutlined } from '@ant-design/icons';
import type { Channel } from '../../../shared/types';

const CHANNEL_LABELS: Record<Channel, string> = {
  whatsapp: 'WhatsApp',
  whatsappapi: 'WhatsApp API',
  facebook: 'Facebook',
  instagram: 'Instagram',
  webchat: 'Webchat',
};

/** The icon of a ticket's channel, named for screen readers. */
export function ChannelIcon({ channel, size = 14 }: { channel: Channel; size?: number }) {
  const style = { fontSize: size };
  const label = CHANNEL_LABELS[channel] ?? channel;
  switch (channel) {
    case 'whatsapp':
      return <WhatsAppOutlined aria-label={label} title={label} style={{ ...style, color: '#25D366' }} />;
    case 'whatsappapi':
      return <WhatsAppOutlined aria-label={label} title={label} style={{ ...style, color: '#128C7E' }} />;
    case 'facebook':
      return <FacebookFilled aria-label={label} title={label} style={{ ...style, color: '#1877F2' }} />;
    case 'instagram':
      return <InstagramOutlined aria-label={label} title={label} style={{ ...style, color: '#E1306C' }} />;
    default:
      return <MessageOutlined aria-label={label} title={label} style={style} />;
  }
}
