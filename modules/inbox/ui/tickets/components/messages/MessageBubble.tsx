import { ForwardOutlined, LockOutlined, RedoOutlined, StopOutlined } from '@ant-design/icons';
import { errorMessage, PluginSlot, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Checkbox, Flex, Popover, Typography, theme } from 'antd';
import { memo, useState } from 'react';
import type { Message } from '../../../../shared/types';
import { formatHourMinute } from '../../logic/format';
import { LazyEmojiPicker } from '../composer/LazyEmojiPicker';
import { AckIcon } from './AckIcon';
import { MessageMedia } from './MessageMedia';
import { MessageMenu, type MessageMenuAction, type MessageMenuOptions } from './MessageMenu';
import { MessageReactions } from './MessageReactions';
import { QuotedMessage } from './QuotedMessage';

/** Props of one message. */
export interface MessageBubbleProps {
  message: Message;
  /** Group tickets name the contact who wrote each message. */
  showAuthor: boolean;
  contactName: string;
  menu: MessageMenuOptions;
  /** Forward selection mode: a checkbox per message. */
  selecting: boolean;
  selected: boolean;
  retrying: boolean;
  onToggleSelect(message: Message): void;
  onAction(message: Message, action: Exclude<MessageMenuAction, 'react'>): void;
  onReact(message: Message, emoji: string): void;
  onRetry(message: Message): void;
}

/**
 * One message (docs/product/tickets-and-inbox.md#screens-and-routes, #states-and-transitions): own messages at the right, private notes set apart, the quoted message,
 * the content by media type, forwarded / edited / deleted marks, time and ack, reactions, the menu, and
 * a retry button on a failed delivery.
 */
export const MessageBubble = memo(function MessageBubble(props: MessageBubbleProps) {
  const { message, showAuthor, contactName, menu, selecting, selected, retrying } = props;
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const [reacting, setReacting] = useState(false);
  const own = message.fromMe;
  const failed = own && message.sendStatus === 'failed';

  let background = own ? token.colorPrimaryBg : token.colorFillQuaternary;
  if (message.isPrivate) background = token.colorWarningBg;
  if (failed) background = token.colorErrorBg;

  const bubble = (
    <div
      data-testid="message"
      style={{
        position: 'relative',
        maxWidth: 'min(560px, 85%)',
        minWidth: 120,
        padding: '6px 10px 4px',
        borderRadius: 10,
        background,
        border: message.isPrivate ? `1px dashed ${token.colorWarningBorder}` : undefined,
        opacity: message.isDeleted ? 0.7 : 1,
      }}
    >
      <Flex justify="space-between" align="flex-start" gap={4}>
        <div style={{ minWidth: 0, flex: 1 }}>
          {message.isPrivate ? (
            <Typography.Text type="warning" style={{ fontSize: 11, display: 'block' }}>
              <LockOutlined /> {t('tickets.messages.private')}
            </Typography.Text>
          ) : null}
          {message.isForwarded ? (
            <Typography.Text type="secondary" italic style={{ fontSize: 11, display: 'block' }}>
              <ForwardOutlined /> {t('tickets.messages.forwarded')}
            </Typography.Text>
          ) : null}
          {showAuthor && !own && message.contact ? (
            <Typography.Text strong style={{ fontSize: 12, display: 'block', color: token.colorPrimary }}>
              {message.contact.name}
            </Typography.Text>
          ) : null}
        </div>
        {selecting || message.isDeleted ? null : (
          <>
            {/* the reaction picker hangs from an empty anchor: clicks on the bubble itself must not open it */}
            <Popover
              open={reacting}
              onOpenChange={setReacting}
              trigger="click"
              placement={own ? 'left' : 'right'}
              styles={{ container: { padding: 0 } }}
              destroyOnHidden
              content={
                <LazyEmojiPicker
                  reactions
                  onPick={(emoji) => {
                    setReacting(false);
                    props.onReact(message, emoji);
                  }}
                />
              }
            >
              <span aria-hidden style={{ display: 'inline-block', width: 0, height: 20 }} />
            </Popover>
            <MessageMenu
              options={menu}
              onAction={(action) => (action === 'react' ? setReacting(true) : props.onAction(message, action))}
            />
          </>
        )}
      </Flex>
      {message.quotedMsg ? <QuotedMessage quoted={message.quotedMsg} contactName={contactName} /> : null}
      {message.isDeleted ? (
        <Typography.Text type="secondary" italic style={{ display: 'block', fontSize: 12 }}>
          <StopOutlined /> {t('tickets.messages.deleted')}
        </Typography.Text>
      ) : null}
      <MessageMedia message={message} />
      {message.isDeleted || selecting ? null : (
        <PluginSlot
          name="messageActions"
          props={{
            message: {
              id: message.id,
              ticketId: message.ticketId,
              mediaType: message.mediaType,
              mediaUrl: message.mediaUrl,
              mediaName: message.mediaName,
              fromMe: message.fromMe,
              isPrivate: message.isPrivate,
            },
          }}
        />
      )}
      <Flex justify="flex-end" align="center" gap={6} style={{ marginTop: 2 }}>
        {message.isEdited ? (
          <Typography.Text type="secondary" italic style={{ fontSize: 11 }}>
            {t('tickets.messages.edited')}
          </Typography.Text>
        ) : null}
        <Typography.Text type="secondary" style={{ fontSize: 11 }}>
          {formatHourMinute(message.createdAt)}
        </Typography.Text>
        {own && !message.isPrivate ? <AckIcon message={message} /> : null}
      </Flex>
      {failed ? (
        <Flex align="center" gap={6} wrap style={{ marginTop: 4 }}>
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            {message.sendError ? errorMessage(message.sendError) : t('tickets.messages.failed')}
          </Typography.Text>
          <Button size="small" icon={<RedoOutlined />} loading={retrying} onClick={() => props.onRetry(message)}>
            {t('tickets.messages.retry')}
          </Button>
        </Flex>
      ) : null}
      <MessageReactions message={message} />
    </div>
  );

  return (
    <Flex justify={own ? 'flex-end' : 'flex-start'} align="center" gap={8} style={{ padding: '2px 12px' }}>
      {selecting ? (
        <Checkbox
          checked={selected}
          onChange={() => props.onToggleSelect(message)}
          aria-label={t('tickets.messages.select')}
          style={{ order: own ? 0 : 1 }}
        />
      ) : null}
      {bubble}
    </Flex>
  );
});
