import { ApiOutlined, FacebookFilled, InstagramOutlined, MessageOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';

const COLORS: Record<string, string> = {
  whatsapp: '#25D366',
  whatsappapi: '#25D366',
  facebook: '#1877F2',
  instagram: '#E1306C',
  webchat: '#6C5CE7',
};

/** The channel's icon in its brand colour, named for screen readers. */
export function ChannelIcon({ channel }: { channel: string }) {
  const { t } = useTranslation('channels');
  const known = ['whatsapp', 'whatsappapi', 'facebook', 'instagram', 'webchat'].includes(channel);
  const label = t(`channelNames.${known ? channel : 'other'}`);
  const style = { color: COLORS[channel] ?? undefined, fontSize: 20 };
  const props = { style, role: 'img', 'aria-label': label, title: label };
  if (channel === 'whatsapp' || channel === 'whatsappapi') return <WhatsAppOutlined {...props} />;
  if (channel === 'facebook') return <FacebookFilled {...props} />;
  if (channel === 'instagram') return <InstagramOutlined {...props} />;
  if (channel === 'webchat') return <MessageOutlined {...props} />;
  return <ApiOutlined {...props} />;
}
