import { BellOutlined } from '@ant-design/icons';
import {
  CLIENT_EVENTS,
  companyEvent,
  joinSocketRoom,
  type SessionUser,
  setTitleBadge,
  subscribeSocketEvent,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Badge, Button, Empty, Flex, Popover, Typography, theme } from 'antd';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { matchPath, useLocation, useNavigate } from 'react-router';
import type { AppMessageEvent, Ticket } from '../../../../shared/types';
import { useListTicketsInfiniteQuery } from '../../api/tickets';
import { formatHourMinute, formatTicketTime, truncate } from '../../logic/format';
import { shouldNotify } from '../../logic/notifications';
import { isSettingEnabled, listViewerOf } from '../../logic/session';
import { unreadMark } from '../../logic/tab-title';
import { flattenTickets, listCount, type TicketListArgs } from '../../logic/ticket-list';
import { ticketUuidParam } from '../../logic/ticket-rules';
import { ContactAvatar } from '../ContactAvatar';
import { askNotificationPermission, playNotificationSound, showBrowserNotification } from './notify';

const UNREAD_OPEN: TicketListArgs = { status: 'open', showAll: false, withUnreadMessages: true };
const UNREAD_PENDING: TicketListArgs = { status: 'pending', showAll: false, withUnreadMessages: true };
const UNREAD_GROUP: TicketListArgs = { status: 'group', showAll: false, withUnreadMessages: true };

/** The ticket on screen, while the page is visible and focused. */
function useWatchedTicket(): RefObject<string | null> {
  const location = useLocation();
  const uuid = ticketUuidParam(matchPath('/tickets/:ticketId', location.pathname)?.params.ticketId);
  const watched = useRef<string | null>(null);
  watched.current = uuid;
  return watched;
}

/** The unread tickets of the user's own lists, live (docs/product/roles-and-permissions.md#roles-in-the-inbox: theirs, and unassigned in their queues). */
function useUnreadTickets(allowGroup: boolean): { tickets: Ticket[]; count: number } {
  const open = useListTicketsInfiniteQuery(UNREAD_OPEN);
  const pending = useListTicketsInfiniteQuery(UNREAD_PENDING);
  const group = useListTicketsInfiniteQuery(UNREAD_GROUP, { skip: !allowGroup });
  return useMemo(() => {
    const tickets = [
      ...flattenTickets(open.data),
      ...flattenTickets(pending.data),
      ...(allowGroup ? flattenTickets(group.data) : []),
    ];
    tickets.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
    const count = (listCount(open.data) ?? 0) + (listCount(pending.data) ?? 0) + (allowGroup ? (listCount(group.data) ?? 0) : 0);
    return { tickets, count };
  }, [open.data, pending.data, group.data, allowGroup]);
}

function NotificationsBell({ user }: { user: SessionUser }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const watched = useWatchedTicket();
  const [open, setOpen] = useState(false);
  const allowGroup = user.allowGroup === true;
  const { tickets, count } = useUnreadTickets(allowGroup);

  useEffect(() => joinSocketRoom(CLIENT_EVENTS.joinNotification, CLIENT_EVENTS.leaveNotification), []);
  useEffect(() => askNotificationPermission(), []);

  // the tab title carries the number of unread tickets (docs/product/tickets-and-inbox.md#constants-and-limits)
  useEffect(() => setTitleBadge(unreadMark(count)), [count]);
  useEffect(() => () => setTitleBadge(''), []);

  const context = useMemo(
    () => ({ viewer: listViewerOf(user), notifyPending: isSettingEnabled(user, 'showNotificationPending') }),
    [user],
  );
  useEffect(
    () =>
      subscribeSocketEvent<AppMessageEvent>(companyEvent(user.companyId, 'appMessage'), (event) => {
        const looking = document.visibilityState === 'visible' && document.hasFocus();
        if (!shouldNotify(event, { ...context, watchedTicketUuid: looking ? watched.current : null })) return;
        if (event.action !== 'create') return;
        const { message, ticket, contact } = event;
        showBrowserNotification({
          title: t('tickets.notifications.title', { name: contact.name }),
          body: `${truncate(message.body || t(`tickets.messages.media.${message.mediaType}`), 120)} - ${formatHourMinute(message.createdAt)}`,
          icon: contact.urlPicture ?? undefined,
          tag: `ticket-${ticket.id}`,
          onClick: () => navigate(`/tickets/${ticket.uuid}`),
        });
        playNotificationSound();
      }),
    [user.companyId, context, watched, navigate, t],
  );

  const content = (
    <div style={{ width: 320, maxHeight: 400, overflowY: 'auto' }}>
      {tickets.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tickets.notifications.empty')} />
      ) : (
        tickets.map((ticket) => (
          <button
            key={ticket.id}
            type="button"
            onClick={() => {
              setOpen(false);
              navigate(`/tickets/${ticket.uuid}`);
            }}
            style={{
              all: 'unset',
              boxSizing: 'border-box',
              cursor: 'pointer',
              display: 'flex',
              gap: 8,
              width: '100%',
              padding: 8,
              borderBottom: `1px solid ${token.colorSplit}`,
            }}
          >
            <Badge count={ticket.unreadMessages} size="small" color={token.colorSuccess}>
              <ContactAvatar name={ticket.contact.name} url={ticket.contact.urlPicture} size={36} />
            </Badge>
            <Flex vertical style={{ flex: 1, minWidth: 0 }}>
              <Flex justify="space-between" gap={4}>
                <Typography.Text strong ellipsis>
                  {ticket.contact.name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatTicketTime(ticket.updatedAt)}
                </Typography.Text>
              </Flex>
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                {truncate(ticket.lastMessage, 40)}
              </Typography.Text>
            </Flex>
          </button>
        ))
      )}
    </div>
  );

  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      title={t('tickets.notifications.heading')}
      content={content}
    >
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button type="text" shape="circle" icon={<BellOutlined />} aria-label={t('tickets.notifications.bell', { count })} />
      </Badge>
    </Popover>
  );
}

/**
 * The notification bell of the top bar (docs/product/tickets-and-inbox.md#screens-and-routes, docs/product/roles-and-permissions.md#roles-in-the-inbox, docs/product/tickets-and-inbox.md#constants-and-limits): unread tickets of the user's lists, the tab
 * title with their number, and a browser notification with sound for each new message of a ticket
 * assigned to the user or unassigned in their queues (pending ones with showNotificationPending).
 */
export function TicketNotifications() {
  const user = useSession();
  if (!user) return null;
  return <NotificationsBell user={user} />;
}
