import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Typography, theme } from 'antd';
import type { Message } from '../../../../shared/types';
import { firstLine, truncate } from '../../logic/format';

/** What a quoted (or replied-to) message shows in one line: its text, or the kind of media it holds. */
export function quotedSummary(
  message: Pick<Message, 'body' | 'mediaType' | 'mediaName'>,
  mediaLabel: (type: string) => string,
): string {
  const text = firstLine(message.body).trim();
  if (text && text !== message.mediaName) return truncate(text, 120);
  if (message.mediaType !== 'chat') return mediaLabel(message.mediaType);
  return text;
}

/** The quoted message above a reply (docs/product/tickets-and-inbox.md#states-and-transitions), with who wrote it. */
export function QuotedMessage({ quoted, contactName }: { quoted: Omit<Message, 'quotedMsg'>; contactName: string }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const author = quoted.fromMe ? t('tickets.messages.you') : (quoted.contact?.name ?? contactName);
  return (
    <div
      style={{
        borderInlineStart: `4px solid ${quoted.fromMe ? token.colorPrimary : token.colorSuccess}`,
        background: 'rgba(128,128,128,0.12)',
        borderRadius: 6,
        padding: '4px 8px',
        marginBottom: 4,
      }}
    >
      <Typography.Text strong style={{ fontSize: 12, display: 'block' }}>
        {author}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
        {quotedSummary(quoted, (type) => t(`tickets.messages.media.${type}`))}
      </Typography.Text>
    </div>
  );
}
