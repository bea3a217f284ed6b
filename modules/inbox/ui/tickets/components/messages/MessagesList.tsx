import { CloseOutlined, ForwardOutlined } from '@ant-design/icons';
import { showError, toast, useLoadMoreOnScroll, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Divider, Empty, Flex, Modal, Spin, Typography, theme } from 'antd';
import { type ReactNode, type UIEvent, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Message, Ticket } from '../../../../shared/types';
import {
  useDeleteMessageMutation,
  useListMessagesInfiniteQuery,
  useReactToMessageMutation,
  useRetryMessageMutation,
} from '../../api/messages';
import { useLocalFlag } from '../../hooks/useLocalFlag';
import { useViewer } from '../../hooks/useViewer';
import { canDeleteMessage, canEditMessage, flattenMessages, visibleMessages, withDaySeparators } from '../../logic/message-list';
import { SIGN_PREFERENCE_KEY } from '../../logic/outgoing';
import { ForwardMessagesModal } from '../modals/ForwardMessagesModal';
import { EditMessageModal } from './EditMessageModal';
import { MessageBubble } from './MessageBubble';
import type { MessageMenuAction } from './MessageMenu';
import { MessagesSkeleton } from './MessagesSkeleton';

/** docs/product/tickets-and-inbox.md#constants-and-limits: older messages load within 50 px of the top. */
export const MESSAGES_TOP_THRESHOLD_PX = 50;
/** How close to the bottom the list keeps following new messages. */
const FOLLOW_THRESHOLD_PX = 150;

/** Props of the conversation. */
export interface MessagesListProps {
  ticket: Ticket;
  onReply(message: Message): void;
}

/**
 * The conversation (docs/product/tickets-and-inbox.md#screens-and-routes): paged upward (older pages within 50 px of the top, the reading position
 * kept), day separators with 'HOJE', the message menu (reply, react, forward, edit, delete), forward
 * selection, retries of failed sends, and 'Diga olá para seu novo contato!' when empty.
 */
export function MessagesList({ ticket, onReply }: MessagesListProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const viewer = useViewer();
  const [modal, modalHolder] = Modal.useModal();
  const { data, isLoading, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    useListMessagesInfiniteQuery(ticket.uuid);
  const [deleteMessage] = useDeleteMessageMutation();
  const [reactToMessage] = useReactToMessageMutation();
  const [retryMessage] = useRetryMessageMutation();
  const [signPreference] = useLocalFlag(SIGN_PREFERENCE_KEY, true);
  const [editing, setEditing] = useState<Message | null>(null);
  const [retryingId, setRetryingId] = useState<number | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [forwardOpen, setForwardOpen] = useState(false);

  const messages = useMemo(
    () => visibleMessages(flattenMessages(data), viewer.settings.hideDeletedMessages),
    [data, viewer.settings.hideDeletedMessages],
  );
  const rows = useMemo(() => withDaySeparators(messages), [messages]);

  // scrolling: older pages load near the top (and at once while the list is too short to scroll: a tall
  // screen, a page of reactions and hidden deletions), new messages are followed at the bottom, and the
  // reading position is kept when older pages arrive
  const restoreFromBottomRef = useRef<number | null>(null);
  const loadOlder = useCallback(() => {
    const box = olderPages.ref.current;
    if (box) restoreFromBottomRef.current = box.scrollHeight - box.scrollTop;
    void fetchNextPage();
  }, [fetchNextPage]);
  const olderPages = useLoadMoreOnScroll<HTMLDivElement>({
    hasMore: hasNextPage && !isLoading,
    loading: isFetchingNextPage,
    onLoadMore: loadOlder,
    edge: 'top',
    thresholdPx: MESSAGES_TOP_THRESHOLD_PX,
    failed: isFetchNextPageError,
  });
  const boxRef = olderPages.ref;
  const followRef = useRef(true);
  const lastIdRef = useRef<number | null>(null);
  const pageCount = data?.pages.length ?? 0;
  const lastMessage = messages[messages.length - 1];

  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box || restoreFromBottomRef.current === null || pageCount === 0) return;
    box.scrollTop = box.scrollHeight - restoreFromBottomRef.current;
    restoreFromBottomRef.current = null;
  }, [pageCount]);

  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box || !lastMessage || lastMessage.id === lastIdRef.current) return;
    const first = lastIdRef.current === null;
    lastIdRef.current = lastMessage.id;
    if (first || followRef.current || lastMessage.fromMe) box.scrollTop = box.scrollHeight;
  }, [lastMessage]);

  // pictures and players take their height only once loaded: while following the bottom, stay there
  const contentRef = useRef<HTMLDivElement>(null);
  const hasMessages = messages.length > 0;
  useEffect(() => {
    const box = boxRef.current;
    const inner = contentRef.current;
    if (!box || !inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (followRef.current && restoreFromBottomRef.current === null) box.scrollTop = box.scrollHeight;
    });
    observer.observe(inner);
    return () => observer.disconnect();
  }, [hasMessages]);

  const { onScroll: loadOlderOnScroll } = olderPages;
  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      const box = event.currentTarget;
      followRef.current = box.scrollHeight - box.scrollTop - box.clientHeight < FOLLOW_THRESHOLD_PX;
      loadOlderOnScroll();
    },
    [loadOlderOnScroll],
  );

  const onAction = useCallback(
    (message: Message, action: Exclude<MessageMenuAction, 'react'>) => {
      if (action === 'reply') onReply(message);
      else if (action === 'edit') setEditing(message);
      else if (action === 'forward') {
        setSelecting(true);
        setSelected([message.id]);
      } else {
        void modal.confirm({
          title: t('tickets.messages.deleteTitle'),
          content: t('tickets.messages.deleteText'),
          okText: t('tickets.messages.menu.delete'),
          okButtonProps: { danger: true },
          cancelText: t('tickets.common.cancel'),
          onOk: () => deleteMessage({ id: message.id, ticketUuid: ticket.uuid }).unwrap().catch(showError),
        });
      }
    },
    [onReply, modal, t, deleteMessage, ticket.uuid],
  );

  const onReact = useCallback(
    (message: Message, emoji: string) => {
      reactToMessage({ id: message.id, ticketUuid: ticket.uuid, type: emoji })
        .unwrap()
        .then(() => toast.success(t('tickets.messages.reactionSent')), showError);
    },
    [reactToMessage, ticket.uuid, t],
  );

  const onRetry = useCallback(
    (message: Message) => {
      setRetryingId(message.id);
      retryMessage({ id: message.id, ticketUuid: ticket.uuid })
        .unwrap()
        .catch(showError)
        .finally(() => setRetryingId(null));
    },
    [retryMessage, ticket.uuid],
  );

  const toggleSelect = useCallback((message: Message) => {
    setSelected((ids) => (ids.includes(message.id) ? ids.filter((id) => id !== message.id) : [...ids, message.id]));
  }, []);

  const stopSelecting = () => {
    setSelecting(false);
    setSelected([]);
  };
  const startForward = () => {
    if (selected.length === 0) {
      toast.error(t('tickets.messagesList.header.notMessage'));
      return;
    }
    setForwardOpen(true);
  };
  // forwarded in conversation order, whatever order they were ticked in
  const orderedSelection = messages.filter((message) => selected.includes(message.id)).map((message) => message.id);

  let content: ReactNode;
  if (isLoading) content = <MessagesSkeleton />;
  else if (isError && messages.length === 0) {
    content = (
      <Empty description={t('tickets.messages.loadError')} style={{ marginTop: 48 }}>
        <Button onClick={() => void refetch()}>{t('tickets.common.retry')}</Button>
      </Empty>
    );
  } else if (messages.length === 0) {
    content = <Empty description={t('tickets.messages.empty')} style={{ marginTop: 48 }} />;
  } else {
    content = rows.map((row) =>
      row.kind === 'day' ? (
        <Divider key={row.key} plain style={{ margin: '12px 0', fontSize: 12 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.today ? t('tickets.messages.today') : row.day}
          </Typography.Text>
        </Divider>
      ) : (
        <MessageBubble
          key={row.key}
          message={row.message}
          showAuthor={ticket.isGroup}
          contactName={ticket.contact.name}
          menu={{
            canReply: !row.message.isPrivate,
            canReact: !row.message.isPrivate,
            canForward: !row.message.isPrivate,
            canEdit: canEditMessage(row.message, viewer.user.id),
            canDelete: canDeleteMessage(row.message, viewer.user.id),
          }}
          selecting={selecting}
          selected={selected.includes(row.message.id)}
          retrying={retryingId === row.message.id}
          onToggleSelect={toggleSelect}
          onAction={onAction}
          onReact={onReact}
          onRetry={onRetry}
        />
      ),
    );
  }

  return (
    <Flex vertical style={{ flex: 1, minHeight: 0 }}>
      {selecting ? (
        <Flex
          align="center"
          justify="space-between"
          gap={8}
          style={{ padding: '6px 12px', borderBottom: `1px solid ${token.colorSplit}`, background: token.colorFillQuaternary }}
        >
          <Typography.Text>{t('tickets.messagesList.header.selected', { count: selected.length })}</Typography.Text>
          <Flex gap={8}>
            <Button size="small" type="primary" icon={<ForwardOutlined />} onClick={startForward}>
              {t('tickets.messages.menu.forward')}
            </Button>
            <Button size="small" icon={<CloseOutlined />} onClick={stopSelecting}>
              {t('tickets.common.cancel')}
            </Button>
          </Flex>
        </Flex>
      ) : null}
      <div
        ref={boxRef}
        id={`messagesList-${ticket.id}`}
        data-testid="messages-list"
        onScroll={onScroll}
        style={{ flex: 1, minHeight: 0, overflowY: 'auto', paddingBottom: 8, background: token.colorBgLayout }}
      >
        {isFetchingNextPage ? (
          <Flex justify="center" style={{ padding: 8 }}>
            <Spin size="small" />
          </Flex>
        ) : null}
        <div ref={contentRef}>{content}</div>
      </div>
      {modalHolder}
      <EditMessageModal message={editing} ticketUuid={ticket.uuid} onClose={() => setEditing(null)} />
      <ForwardMessagesModal
        open={forwardOpen}
        messageIds={orderedSelection}
        signMessage={viewer.settings.sendSignMessage && signPreference}
        onClose={() => setForwardOpen(false)}
        onForwarded={() => {
          setForwardOpen(false);
          stopSelecting();
        }}
      />
    </Flex>
  );
}
