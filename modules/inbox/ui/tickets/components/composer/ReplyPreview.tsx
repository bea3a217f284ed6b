import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Typography, theme } from 'antd';
import type { Message } from '../../../../shared/types';
import { quotedSummary } from '../messages/QuotedMessage';

/** The message being replied to, above the composer, with a button to drop the reply. */
export function ReplyPreview({ message, contactName, onClear }: { message: Message; contactName: string; onClear(): void }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      gap={8}
      style={{
        margin: '8px 12px 0',
        padding: '4px 8px',
        borderInlineStart: `4px solid ${message.fromMe ? token.colorPrimary : token.colorSuccess}`,
        background: token.colorFillQuaternary,
        borderRadius: 6,
      }}
    >
      <div style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong style={{ fontSize: 12, display: 'block' }}>
          {t('tickets.composer.replyingTo', {
            name: message.fromMe ? t('tickets.messages.you') : (message.contact?.name ?? contactName),
          })}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
          {quotedSummary(message, (type) => t(`tickets.messages.media.${type}`))}
        </Typography.Text>
      </div>
      <Button
        type="text"
        size="small"
        icon={<CloseOutlined />}
        aria-label={t('tickets.composer.cancelReply')}
        onClick={onClear}
      />
    </Flex>
  );
}
