import {
  FacebookOutlined,
  InstagramOutlined,
  MessageOutlined,
  SwapOutlined,
  UserOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Badge, Button, Dropdown, Tag, theme } from 'antd';
import { type CSSProperties, type DragEvent, memo } from 'react';
import { Link } from 'react-router';
import { cardTime } from '../../shared/format';
import type { KanbanTicket } from '../types';

/** The height of a card's row in a lane (the lanes are virtualised over fixed rows). */
export const CARD_ROW_HEIGHT = 148;

const CHANNEL_ICONS: Record<string, typeof WhatsAppOutlined> = {
  whatsapp: WhatsAppOutlined,
  whatsappapi: WhatsAppOutlined,
  facebook: FacebookOutlined,
  instagram: InstagramOutlined,
};

/** One line, cut with an ellipsis by CSS (antd's measured ellipsis costs too much in a scrolled list). */
const line: CSSProperties = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 };
const row: CSSProperties = { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 6 };

export interface MoveTarget {
  key: string;
  id: number | null;
  name: string;
}

export interface KanbanCardProps {
  ticket: KanbanTicket;
  draggable: boolean;
  onDragStart?(event: DragEvent<HTMLElement>, ticket: KanbanTicket): void;
  /** Every lane, for moving without dragging (touch screens, keyboards); the card's own is left out. */
  lanes?: MoveTarget[];
  onMove?(ticket: KanbanTicket, laneId: number | null): void;
}

/**
 * A ticket on the board (2-administration §2): number, contact name and number, channel icon, last
 * message, time, unread highlight, owner badge and 'Ver Ticket'. Memoised, and plain elements inside: a
 * lane scrolling through thousands of cards renders only the cards that come into view.
 */
export const KanbanCard = memo(function KanbanCard({ ticket, draggable, onDragStart, lanes, onMove }: KanbanCardProps) {
  const { t } = useTranslation('kanban');
  const { token } = theme.useToken();
  const ChannelIcon = CHANNEL_ICONS[ticket.channel] ?? MessageOutlined;
  const channel = CHANNEL_ICONS[ticket.channel] ? ticket.channel.replace('api', '') : 'other';
  const unread = ticket.unreadMessages > 0;
  const targets = (lanes ?? []).filter((lane) => lane.id !== ticket.laneId);
  return (
    <article
      draggable={draggable}
      onDragStart={(event) => onDragStart?.(event, ticket)}
      data-testid={`kanban-card-${ticket.id}`}
      data-ticket-id={ticket.id}
      style={{ padding: '0 8px 8px', height: CARD_ROW_HEIGHT, boxSizing: 'border-box', cursor: draggable ? 'grab' : 'default' }}
    >
      <div
        style={{
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          gap: 4,
          padding: 10,
          borderRadius: token.borderRadiusLG,
          border: `1px solid ${unread ? token.colorSuccess : token.colorBorderSecondary}`,
          background: unread ? token.colorSuccessBg : token.colorBgContainer,
          color: token.colorText,
          fontSize: token.fontSize,
        }}
      >
        <div style={row}>
          <span style={{ ...line, display: 'flex', alignItems: 'center', gap: 6, fontWeight: 600 }}>
            <ChannelIcon aria-label={t(`board.channels.${channel}`)} style={{ color: token.colorSuccess }} />
            <span style={line}>
              #{ticket.id} {ticket.contact.name}
            </span>
          </span>
          <span style={{ color: token.colorTextSecondary, fontSize: 12, flexShrink: 0 }}>{cardTime(ticket.updatedAt)}</span>
        </div>
        <span style={{ ...line, color: token.colorTextSecondary, fontSize: 12 }}>{ticket.contact.number ?? ''}</span>
        <div style={row}>
          <span style={{ ...line, flex: 1, fontWeight: unread ? 600 : undefined }}>{ticket.lastMessage}</span>
          {unread ? <Badge count={ticket.unreadMessages} title={t('board.unread', { count: ticket.unreadMessages })} /> : null}
        </div>
        <div style={{ ...row, marginTop: 'auto' }}>
          {ticket.user ? (
            <Tag icon={<UserOutlined />} color="blue" style={{ ...line, marginInlineEnd: 0, maxWidth: '55%' }}>
              {ticket.user.name}
            </Tag>
          ) : (
            <span style={{ color: token.colorTextSecondary, fontSize: 12 }}>{t('board.noUser')}</span>
          )}
          <span style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
            {targets.length > 0 && onMove ? (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: targets.map((target) => ({ key: target.key, label: target.name })),
                  onClick: ({ key }) => onMove(ticket, targets.find((target) => target.key === key)?.id ?? null),
                }}
              >
                <Button
                  size="small"
                  type="text"
                  icon={<SwapOutlined />}
                  aria-label={t('board.moveTo')}
                  title={t('board.moveTo')}
                />
              </Dropdown>
            ) : null}
            <Link to={`/tickets/${ticket.uuid}`} draggable={false}>
              <Button size="small" type="primary" ghost>
                {t('board.viewTicket')}
              </Button>
            </Link>
          </span>
        </div>
      </div>
    </article>
  );
});
