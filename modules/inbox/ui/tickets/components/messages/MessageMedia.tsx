import { DownloadOutlined, EnvironmentOutlined, FileOutlined, PhoneOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Image, Tag, Typography } from 'antd';
import type { Message } from '../../../../shared/types';
import { parseLocation, parseVCard } from '../../logic/outgoing';
import { ContactAvatar } from '../ContactAvatar';
import { useTicketActions } from '../TicketActionsProvider';
import { AudioPlayer } from './AudioPlayer';
import { MessageText } from './MessageText';

/** A document: its name and a download link. */
function DocumentCard({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation('inbox');
  return (
    <Flex align="center" gap={8} style={{ padding: 8, borderRadius: 6, background: 'rgba(128,128,128,0.12)' }}>
      <FileOutlined style={{ fontSize: 24 }} />
      <Typography.Text ellipsis style={{ flex: 1, minWidth: 0, maxWidth: 220 }}>
        {name}
      </Typography.Text>
      <Button
        size="small"
        icon={<DownloadOutlined />}
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        download={name}
        aria-label={t('tickets.messages.download', { name })}
      />
    </Flex>
  );
}

/** A shared contact card, with a button to start a conversation with it. */
function ContactCard({ body }: { body: string }) {
  const { t } = useTranslation('inbox');
  const actions = useTicketActions();
  const card = parseVCard(body);
  if (!card) return <MessageText text={body} />;
  return (
    <Flex vertical gap={6} style={{ padding: 8, borderRadius: 6, background: 'rgba(128,128,128,0.12)', minWidth: 200 }}>
      <Flex align="center" gap={8}>
        <ContactAvatar name={card.name || card.number} url={null} size={36} />
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ display: 'block' }}>
            {card.name || card.number}
          </Typography.Text>
          <Typography.Text type="secondary">{card.number}</Typography.Text>
        </div>
      </Flex>
      {card.number ? (
        <Button size="small" onClick={() => actions.newTicket(card.number)}>
          {t('tickets.messages.talkTo')}
        </Button>
      ) : null}
    </Flex>
  );
}

/** A location: a link to the map. */
function LocationCard({ body }: { body: string }) {
  const { t } = useTranslation('inbox');
  const position = parseLocation(body);
  const href = position ? `https://maps.google.com/maps?q=${position.lat},${position.lng}` : /https?:\/\/\S+/.exec(body)?.[0];
  return (
    <Flex vertical gap={4}>
      <Flex align="center" gap={6}>
        <EnvironmentOutlined />
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {t('tickets.messages.openMap')}
          </a>
        ) : (
          <Typography.Text>{t('tickets.messages.location')}</Typography.Text>
        )}
      </Flex>
      {position ? null : <MessageText text={body.replace(/https?:\/\/\S+/, '').trim()} />}
    </Flex>
  );
}

/** Whether a body is worth showing under media (not the file's own name, not empty). */
function isCaption(message: Message): boolean {
  return Boolean(message.body?.trim()) && message.body !== message.mediaName;
}

/**
 * The content of a message by its media type (docs/product/tickets-and-inbox.md#entities): image, audio (player with rate), video,
 * document, location, contact card, ad preview, call log, template, or text.
 */
export function MessageMedia({ message }: { message: Message }) {
  const { t } = useTranslation('inbox');
  const url = message.mediaUrl;
  const deleted = message.isDeleted;
  switch (message.mediaType) {
    case 'image':
      return (
        <Flex vertical gap={4}>
          {url ? (
            <Image src={url} alt={message.mediaName ?? ''} width={240} style={{ borderRadius: 6, objectFit: 'cover' }} />
          ) : null}
          {isCaption(message) ? <MessageText text={message.body} deleted={deleted} /> : null}
        </Flex>
      );
    case 'audio':
      return url ? <AudioPlayer url={url} /> : <MessageText text={message.body} deleted={deleted} />;
    case 'video':
      return (
        <Flex vertical gap={4}>
          {/* biome-ignore lint/a11y/useMediaCaption: customer videos come without captions */}
          {url ? <video src={url} controls preload="metadata" style={{ maxWidth: 280, borderRadius: 6 }} /> : null}
          {isCaption(message) ? <MessageText text={message.body} deleted={deleted} /> : null}
        </Flex>
      );
    case 'locationMessage':
      return <LocationCard body={message.body} />;
    case 'contactMessage':
      return <ContactCard body={message.body} />;
    case 'call_log':
      return (
        <Flex align="center" gap={6}>
          <PhoneOutlined />
          <Typography.Text>{message.body || t('tickets.messages.callLog')}</Typography.Text>
        </Flex>
      );
    case 'template':
      return (
        <Flex vertical gap={4} align="flex-start">
          <Tag>{t('tickets.messages.template')}</Tag>
          <MessageText text={message.body} deleted={deleted} />
        </Flex>
      );
    case 'adMetaPreview':
      return (
        <Flex vertical gap={4} align="flex-start">
          <Tag color="purple">{t('tickets.messages.ad')}</Tag>
          {url ? <Image src={url} width={220} style={{ borderRadius: 6 }} /> : null}
          <MessageText text={message.body} deleted={deleted} />
        </Flex>
      );
    default:
      if (url) {
        return (
          <Flex vertical gap={4}>
            <DocumentCard url={url} name={message.mediaName ?? message.body ?? t('tickets.messages.file')} />
            {isCaption(message) ? <MessageText text={message.body} deleted={deleted} /> : null}
          </Flex>
        );
      }
      return <MessageText text={message.body} deleted={deleted} />;
  }
}
