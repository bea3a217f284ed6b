import { PluginSlot, useTranslation } from '@balcao/plugin-sdk/ui';
import { ChatText } from '@balcao/plugin-sdk/ui/chat-text';
import { Badge, Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { memo } from 'react';
import { Link } from 'react-router';
import type { Ticket } from '../../../../shared/types';
import { formatTicketTime, truncate } from '../../logic/format';
import { ratingEmoji, visibleTags } from '../../logic/ticket-rules';
import { ChannelIcon } from '../ChannelIcon';
import { ContactAvatar } from '../ContactAvatar';
import { TicketItemActions } from './TicketItemActions';

/** docs/product/tickets-and-inbox.md#constants-and-limits: previews are cut to 40 characters, names to 60. */
const PREVIEW_MAX = 40;
const NAME_MAX = 60;

/** Props of a list item. */
export interface TicketListItemProps {
  ticket: Ticket;
  selected: boolean;
  /** Admins see the assigned user's tag (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
  showUser: boolean;
}

/**
 * One ticket of the list (docs/product/tickets-and-inbox.md#screens-and-routes): picture and name, last message, channel, queue chip, assigned user,
 * two tags and '+N', the badges features add (`ticketListItemBadges` slot), unread count, time, rating emoji,
 * and the quick buttons.
 */
export const TicketListItem = memo(function TicketListItem({ ticket, selected, showUser }: TicketListItemProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const { shown, more } = visibleTags(ticket.tags);
  const rating = ratingEmoji(ticket.userRating);
  const unread = ticket.unreadMessages > 0;

  return (
    <div
      data-testid="ticket-item"
      style={{
        display: 'flex',
        gap: 10,
        padding: '10px 12px',
        borderBottom: `1px solid ${token.colorSplit}`,
        background: selected ? token.colorPrimaryBg : undefined,
        borderInlineStart: `4px solid ${ticket.queue?.color ?? token.colorBorder}`,
      }}
    >
      <Link
        to={`/tickets/${ticket.uuid}`}
        aria-current={selected ? 'true' : undefined}
        style={{ display: 'flex', gap: 10, flex: 1, minWidth: 0, color: 'inherit' }}
      >
        <Badge count={ticket.unreadMessages} size="small" offset={[-4, 4]} color={token.colorSuccess}>
          <ContactAvatar name={ticket.contact.name} url={ticket.contact.urlPicture} />
        </Badge>
        <Flex vertical gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Flex align="center" gap={6}>
            <ChannelIcon channel={ticket.channel} />
            <Typography.Text strong={unread} ellipsis style={{ flex: 1, minWidth: 0 }} title={ticket.contact.name}>
              {truncate(ticket.contact.name, NAME_MAX)}
            </Typography.Text>
            {rating ? (
              <Tooltip title={t('tickets.item.rating', { rate: ticket.userRating?.rate ?? 0 })}>
                <span role="img" aria-label={t('tickets.item.rating', { rate: ticket.userRating?.rate ?? 0 })}>
                  {rating}
                </span>
              </Tooltip>
            ) : null}
            <Typography.Text type={unread ? 'success' : 'secondary'} style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {formatTicketTime(ticket.updatedAt)}
            </Typography.Text>
          </Flex>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 13 }}>
            {ticket.lastMessage ? <ChatText text={truncate(ticket.lastMessage, PREVIEW_MAX)} /> : t('tickets.item.noMessage')}
          </Typography.Text>
          <Flex gap={4} wrap style={{ rowGap: 4 }}>
            <Tag color={ticket.queue?.color ?? 'default'} style={{ marginInlineEnd: 0 }}>
              {ticket.queue?.name ?? t('tickets.common.noQueue')}
            </Tag>
            {showUser && ticket.user ? (
              <Tag color="geekblue" style={{ marginInlineEnd: 0 }}>
                {ticket.user.name}
              </Tag>
            ) : null}
            {shown.map((tag) => (
              <Tag key={tag.id} color={tag.color} style={{ marginInlineEnd: 0 }}>
                {tag.name}
              </Tag>
            ))}
            {more > 0 ? (
              <Tooltip
                title={ticket.tags
                  .slice(2)
                  .map((tag) => tag.name)
                  .join(', ')}
              >
                <Tag style={{ marginInlineEnd: 0 }}>+{more}</Tag>
              </Tooltip>
            ) : null}
            <PluginSlot name="ticketListItemBadges" props={{ ticket }} />
          </Flex>
        </Flex>
      </Link>
      <Flex vertical justify="center">
        <TicketItemActions ticket={ticket} />
      </Flex>
    </div>
  );
});
