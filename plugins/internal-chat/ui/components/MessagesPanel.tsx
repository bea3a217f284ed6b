import { PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { subscribeSocketEvent, useLoadMoreOnScroll, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Empty, Flex, Input, Skeleton, Typography, theme, Upload } from 'antd';
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  unreadsOf,
  useLazyTicketQuery,
  useMarkReadMutation,
  useMessagesQuery,
  useSendFileMutation,
  useSendMessageMutation,
  useTypingMutation,
} from '../api';
import type { Chat, ChatEvent, ChatMessage } from '../types';

/** Older messages load when the conversation is scrolled within this distance of its top (docs/product/automation.md). */
export const OLDER_MESSAGES_THRESHOLD_PX = 600;

/** A typing notice is sent at most this often while the user writes, and shown this long after the last one. */
export const TYPING_SEND_INTERVAL_MS = 3_000;
export const TYPING_SHOWN_MS = 5_000;

/** Who else is writing in the chat, from its `typing` events, each for TYPING_SHOWN_MS after their last. */
function useTypers(chatId: number, companyId: number | undefined, myId: number | undefined): string[] {
  const [typers, setTypers] = useState<ReadonlyMap<number, { name: string; until: number }>>(new Map());
  useEffect(() => {
    if (companyId === undefined) return;
    return subscribeSocketEvent<ChatEvent>(`company-${companyId}-chat-${chatId}`, (event) => {
      if (event.action === 'new-message') {
        // a message sent ends its sender's typing
        const senderId = event.newMessage.senderId;
        setTypers((current) => {
          if (senderId === null || !current.has(senderId)) return current;
          const next = new Map(current);
          next.delete(senderId);
          return next;
        });
        return;
      }
      if (event.action !== 'typing' || event.userId === myId) return;
      setTypers((current) => new Map(current).set(event.userId, { name: event.name, until: Date.now() + TYPING_SHOWN_MS }));
    });
  }, [chatId, companyId, myId]);
  useEffect(() => {
    if (typers.size === 0) return;
    const timer = setInterval(() => {
      setTypers((current) => {
        const now = Date.now();
        const next = new Map([...current].filter(([, typer]) => typer.until > now));
        return next.size === current.size ? current : next;
      });
    }, 1_000);
    return () => clearInterval(timer);
  }, [typers.size]);
  return [...typers.values()].map((typer) => typer.name);
}

const timeOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** Who among the other members has read up to `message` ("seen by", under the user's own last message). */
function seenBy(chat: Chat, message: ChatMessage, myId: number | undefined): string[] {
  return chat.users
    .filter((member) => member.userId !== myId && member.lastReadAt !== null && member.lastReadAt >= message.createdAt)
    .map((member) => member.user.name);
}

/** `#123` in a message: a ticket's number. */
const TICKET_MENTION = /(#\d{1,10})\b/;

/** A ticket mention: opens the ticket when the user may see it (the inbox answers 404 otherwise, silently). */
function TicketMention({ id }: { id: number }) {
  const { t } = useTranslation('internal-chat');
  const navigate = useNavigate();
  const [loadTicket, { isFetching }] = useLazyTicketQuery();
  const open = async () => {
    const result = await loadTicket(id, true);
    if (result.data) navigate(`/tickets/${result.data.uuid}`);
  };
  return (
    <Button
      type="link"
      size="small"
      style={{ padding: 0, height: 'auto' }}
      onClick={() => void open()}
      loading={isFetching}
      aria-label={t('messages.ticketLink', { number: id })}
    >
      #{id}
    </Button>
  );
}

/** A message's text with its ticket mentions as links; everything else stays text. */
function MessageText({ text }: { text: string }) {
  return text
    .split(TICKET_MENTION)
    .map((part, index) =>
      index % 2 === 1 ? (
        <TicketMention key={`${index}-${part}`} id={Number(part.slice(1))} />
      ) : (
        <Fragment key={`${index}-${part}`}>{part}</Fragment>
      ),
    );
}

function MessageBubble({ message, mine, seen }: { message: ChatMessage; mine: boolean; seen: string[] }) {
  const { t } = useTranslation('internal-chat');
  const { token } = theme.useToken();
  const image = message.mediaUrl && message.mediaType?.startsWith('image/');
  return (
    <Flex vertical align={mine ? 'flex-end' : 'flex-start'} style={{ marginBottom: 8 }} data-testid="chat-message">
      <div
        style={{
          maxWidth: 'min(80%, 560px)',
          background: mine ? token.colorPrimaryBg : token.colorFillQuaternary,
          borderRadius: token.borderRadiusLG,
          padding: '6px 10px',
        }}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {mine ? t('messages.you') : (message.sender?.name ?? '—')} · {timeOf(message.createdAt)}
        </Typography.Text>
        {message.mediaUrl ? (
          <div>
            {image ? (
              <a href={message.mediaUrl} target="_blank" rel="noreferrer">
                <img src={message.mediaUrl} alt={message.mediaName ?? ''} style={{ maxWidth: '100%', maxHeight: 240 }} />
              </a>
            ) : (
              <a href={message.mediaUrl} target="_blank" rel="noreferrer" download={message.mediaName ?? undefined}>
                <PaperClipOutlined /> {message.mediaName}
              </a>
            )}
          </div>
        ) : null}
        {message.message ? (
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0, overflowWrap: 'anywhere' }}>
            <MessageText text={message.message} />
          </Typography.Paragraph>
        ) : null}
      </div>
      {seen.length > 0 ? (
        <Typography.Text type="secondary" style={{ fontSize: 11 }} data-testid="seen-by">
          {t('messages.seenBy', { names: seen.join(', ') })}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

/**
 * One chat's conversation: its messages (older ones load near the top), the read mark when the user has
 * unreads in it, and the composer — Enter sends, Shift+Enter breaks the line, blank text is ignored.
 */
export function MessagesPanel({ chat }: { chat: Chat }) {
  const { t } = useTranslation('internal-chat');
  const me = useSession();
  const [pageNumber, setPageNumber] = useState(1);
  const { data, isFetching } = useMessagesQuery({ chatId: chat.id, pageNumber });
  const [sendMessage] = useSendMessageMutation();
  const [sendFile, sendingFile] = useSendFileMutation();
  const [markRead] = useMarkReadMutation();
  const [announceTyping] = useTypingMutation();
  const [text, setText] = useState('');
  const typers = useTypers(chat.id, me?.companyId, me?.id);
  const lastTypingAt = useRef(0);
  const write = (value: string) => {
    setText(value);
    const now = Date.now();
    if (value.trim() !== '' && now - lastTypingAt.current >= TYPING_SEND_INTERVAL_MS) {
      lastTypingAt.current = now;
      void announceTyping(chat.id);
    }
  };
  const { ref, onScroll } = useLoadMoreOnScroll<HTMLDivElement>({
    hasMore: data?.hasMore ?? false,
    loading: isFetching,
    onLoadMore: () => setPageNumber((page) => page + 1),
    edge: 'top',
    thresholdPx: OLDER_MESSAGES_THRESHOLD_PX,
  });

  // the unread count of this chat goes back to 0 once the user sees it (selected, tab visible)
  const myUnreads = unreadsOf(chat, me?.id);
  useEffect(() => {
    if (myUnreads > 0 && me && document.visibilityState === 'visible') void markRead({ chatId: chat.id, userId: me.id });
  }, [myUnreads, chat.id, me, markRead]);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible' && myUnreads > 0 && me) void markRead({ chatId: chat.id, userId: me.id });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [myUnreads, chat.id, me, markRead]);

  // keep the view where it was when older messages come in above; follow new ones at the bottom
  const records = data?.records ?? [];
  const firstId = records[0]?.id;
  const lastId = records[records.length - 1]?.id;
  const previous = useRef<{ firstId?: number; lastId?: number; height: number; top: number }>({ height: 0, top: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const before = previous.current;
    if (before.firstId !== undefined && firstId !== before.firstId && lastId === before.lastId) {
      element.scrollTop = element.scrollHeight - before.height + before.top;
    } else if (lastId !== before.lastId) {
      element.scrollTop = element.scrollHeight;
    }
    previous.current = { firstId, lastId, height: element.scrollHeight, top: element.scrollTop };
  }, [firstId, lastId, ref]);

  const send = () => {
    const message = text.trim();
    if (!message) return;
    setText('');
    lastTypingAt.current = 0;
    void sendMessage({ chatId: chat.id, message });
  };

  let lastMineIndex = -1;
  for (const [index, message] of records.entries()) if (message.senderId === me?.id) lastMineIndex = index;

  return (
    <Flex vertical style={{ height: '100%', minHeight: 0 }}>
      <Typography.Title level={5} style={{ marginTop: 0 }} ellipsis>
        {chat.title}
      </Typography.Title>
      <div
        ref={ref}
        onScroll={(event) => {
          previous.current.top = event.currentTarget.scrollTop;
          previous.current.height = event.currentTarget.scrollHeight;
          onScroll();
        }}
        style={{ flex: 1, overflowY: 'auto', minHeight: 0, paddingInline: 4 }}
        data-testid="chat-messages"
      >
        {data === undefined ? (
          <Skeleton active paragraph={{ rows: 5 }} />
        ) : records.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('messages.empty')} />
        ) : (
          <>
            {isFetching && pageNumber > 1 ? (
              <Typography.Text type="secondary">{t('messages.loadingOlder')}</Typography.Text>
            ) : null}
            {records.map((message, index) => (
              <MessageBubble
                key={message.id}
                message={message}
                mine={message.senderId === me?.id}
                seen={index === lastMineIndex ? seenBy(chat, message, me?.id) : []}
              />
            ))}
          </>
        )}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12, minHeight: 18 }} data-testid="typing">
        {typers.length > 0 ? t('messages.typing', { names: typers.join(', ') }) : null}
      </Typography.Text>
      <Flex gap={8} align="flex-end" style={{ paddingTop: 4 }}>
        <Upload
          showUploadList={false}
          beforeUpload={(file) => {
            void sendFile({ chatId: chat.id, file, message: '' });
            return false;
          }}
        >
          <Button icon={<PaperClipOutlined />} aria-label={t('messages.attach')} loading={sendingFile.isLoading} />
        </Upload>
        <Input.TextArea
          value={text}
          onChange={(event) => write(event.target.value)}
          onPressEnter={(event) => {
            if (event.shiftKey) return;
            event.preventDefault();
            send();
          }}
          autoSize={{ minRows: 1, maxRows: 5 }}
          maxLength={4000}
          placeholder={t('messages.placeholder')}
          aria-label={t('messages.placeholder')}
        />
        <Button type="primary" icon={<SendOutlined />} onClick={send} aria-label={t('messages.send')} />
      </Flex>
    </Flex>
  );
}
