import { InboxOutlined } from '@ant-design/icons';
import {
  CLIENT_EVENTS,
  companyEvent,
  joinSocketRoom,
  showError,
  subscribeSocketEvent,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Alert, Flex, Skeleton, Typography, theme } from 'antd';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Message, TicketEvent } from '../../../../shared/types';
import { useGetTicketQuery } from '../../api/tickets';
import { useElapsed } from '../../hooks/useDebouncedValue';
import { useViewer } from '../../hooks/useViewer';
import { canCompose, hasReplyWindow } from '../../logic/ticket-rules';
import { MessageInput } from '../composer/MessageInput';
import { ContactDrawer } from '../drawer/ContactDrawer';
import { MessagesList } from '../messages/MessagesList';
import { TicketHeader } from './TicketHeader';
import { VisitorTypingLine } from './VisitorTypingLine';

/** docs/product/tickets-and-inbox.md#constants-and-limits: the ticket loads 500 ms after it is chosen (quick clicks through the list cost no calls). */
export const TICKET_LOAD_DELAY_MS = 500;

function TicketViewSkeleton() {
  return (
    <Flex vertical gap={16} style={{ padding: 16 }} data-testid="ticket-skeleton">
      <Skeleton active avatar={{ size: 40 }} title={{ width: '40%' }} paragraph={{ rows: 1, width: '25%' }} />
      <Skeleton active paragraph={{ rows: 8 }} title={false} />
    </Flex>
  );
}

/**
 * The open ticket (docs/product/tickets-and-inbox.md#screens-and-routes): header, conversation, the 24-hour notice of Meta channels, composer (files
 * may be dropped anywhere on the view) and the contact drawer. A failed load, or the ticket being deleted
 * or leaving the user's sight, returns to /tickets. Joins the ticket's `joinChatBox` room while open.
 */
export function TicketView({ uuid, narrow }: { uuid: string; narrow: boolean }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const viewer = useViewer();
  const ready = useElapsed(TICKET_LOAD_DELAY_MS, uuid);
  const { data: ticket, isError, error } = useGetTicketQuery(uuid, { skip: !ready, refetchOnMountOrArgChange: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const ticketId = ticket?.id;
  const ticketIdRef = useRef<number | undefined>(undefined);
  ticketIdRef.current = ticketId;

  useEffect(() => {
    if (!isError) return;
    showError(error);
    navigate('/tickets', { replace: true });
  }, [isError, error, navigate]);

  useEffect(() => {
    if (ticketId === undefined) return;
    return joinSocketRoom(CLIENT_EVENTS.joinChatBox, CLIENT_EVENTS.joinChatBoxLeave, String(ticketId));
  }, [ticketId]);

  // a ticket deleted, or gone out of the user's sight (transferred away), can't stay open
  useEffect(
    () =>
      subscribeSocketEvent<TicketEvent>(companyEvent(viewer.user.companyId, 'ticket'), (event) => {
        if (event.action !== 'update' && event.ticketId === ticketIdRef.current) navigate('/tickets', { replace: true });
      }),
    [viewer.user.companyId, navigate],
  );

  if (!ticket) return <TicketViewSkeleton />;

  const acceptsFiles = canCompose(ticket.status);
  const onDragOver = (event: DragEvent) => {
    if (!acceptsFiles || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    if (!acceptsFiles) return;
    event.preventDefault();
    setDragging(false);
    const dropped = Array.from(event.dataTransfer.files);
    if (dropped.length > 0) setFiles((current) => [...current, ...dropped]);
  };

  return (
    // the whole view takes dropped files (docs/product/tickets-and-inbox.md#screens-and-routes file drop): a drop zone, not a control
    <section
      aria-label={ticket.contact.name}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      style={{ position: 'relative', height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="ticket-view"
    >
      <TicketHeader ticket={ticket} narrow={narrow} onOpenContact={() => setDrawerOpen(true)} />
      <MessagesList ticket={ticket} onReply={setReplyTo} />
      <VisitorTypingLine ticket={ticket} />
      {hasReplyWindow(ticket.channel) ? <Alert type="info" showIcon banner title={t('tickets.view.replyWindow')} /> : null}
      <MessageInput
        ticket={ticket}
        replyTo={replyTo}
        onClearReply={() => setReplyTo(null)}
        files={files}
        onFilesChange={setFiles}
      />
      <ContactDrawer ticket={ticket} open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      {dragging ? (
        <Flex
          vertical
          align="center"
          justify="center"
          gap={8}
          style={{
            position: 'absolute',
            inset: 0,
            background: token.colorBgMask,
            border: `2px dashed ${token.colorPrimary}`,
            pointerEvents: 'none',
            zIndex: 5,
          }}
        >
          <InboxOutlined style={{ fontSize: 48, color: token.colorWhite }} />
          <Typography.Text style={{ color: token.colorWhite }}>{t('tickets.view.dropFiles')}</Typography.Text>
        </Flex>
      ) : null}
    </section>
  );
}
