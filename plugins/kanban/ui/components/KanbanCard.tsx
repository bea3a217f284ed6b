import {
  FacebookOutlined,
  InstagramOutlined,
  MessageOutlined,
  SwapOutlined,
  UserOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { ChatText } from '@balcao/plugin-sdk/ui/chat-text';
import type { GlobalToken } from 'antd';
import { Dropdown } from 'antd';
import { type CSSProperties, type DragEvent, memo, useState } from 'react';
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

/**
 * The board's styles: plain elements with classes, coloured by the antd theme through custom properties
 * (`boardThemeVars`) set once on the board. A card is a handful of elements and no antd component: a
 * lane scrolling through thousands of cards mounts a few new ones per frame, and each must be cheap.
 */
export const BOARD_CSS = `
.kb-lane { width: 300px; flex-shrink: 0; display: flex; flex-direction: column; background: var(--kb-lane); border-radius: 8px; }
.kb-lane-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; padding: 8px 12px;
  color: var(--kb-text); font-size: var(--kb-font-size); }
.kb-count { flex-shrink: 0; font-size: var(--kb-font-size); }
.kb-card { height: ${CARD_ROW_HEIGHT}px; padding: 0 8px 8px; box-sizing: border-box; }
.kb-card[draggable="true"] { cursor: grab; }
.kb-card.kb-moving { opacity: 0.45; }
.kb-body { height: 100%; box-sizing: border-box; display: flex; flex-direction: column; gap: 4px; padding: 10px;
  border-radius: var(--kb-radius); border: 1px solid var(--kb-border); background: var(--kb-bg); color: var(--kb-text);
  font-size: var(--kb-font-size); line-height: 1.5715; }
.kb-unread .kb-body { border-color: var(--kb-success); background: var(--kb-success-bg); }
.kb-placeholder .kb-body { background: transparent; border-style: dashed; }
.kb-row { display: flex; justify-content: space-between; align-items: center; gap: 6px; min-width: 0; }
.kb-line { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.kb-title { font-weight: 600; display: flex; align-items: center; gap: 6px; }
.kb-title .anticon { color: var(--kb-success); }
.kb-muted { color: var(--kb-text-secondary); font-size: 12px; }
.kb-time { flex-shrink: 0; }
.kb-message { flex: 1; }
.kb-unread .kb-message { font-weight: 600; }
.kb-badge { flex-shrink: 0; min-width: 20px; height: 20px; padding: 0 6px; border-radius: 10px; box-sizing: border-box;
  background: var(--kb-error); color: #fff; font-size: 12px; line-height: 20px; text-align: center; }
.kb-foot { margin-top: auto; }
.kb-user { max-width: 55%; padding: 0 7px; border-radius: 4px; font-size: 12px; line-height: 20px;
  color: var(--kb-primary); background: var(--kb-primary-bg); border: 1px solid var(--kb-primary-border); }
.kb-user .anticon { margin-inline-end: 4px; }
.kb-actions { display: flex; gap: 4px; align-items: center; flex-shrink: 0; }
.kb-button { display: inline-flex; align-items: center; justify-content: center; height: 24px; padding: 0 7px;
  border-radius: 4px; font: inherit; font-size: var(--kb-font-size); cursor: pointer; box-sizing: border-box;
  border: 1px solid transparent; background: transparent; color: var(--kb-text); text-decoration: none; }
.kb-button:hover { background: var(--kb-fill); }
.kb-button:focus-visible { outline: 2px solid var(--kb-primary); outline-offset: 1px; }
.kb-open { border-color: var(--kb-primary); color: var(--kb-primary); }
.kb-open:hover { color: var(--kb-primary); background: var(--kb-primary-bg); }
`;

/** The antd theme's colours as the custom properties BOARD_CSS uses (dark mode included). */
export function boardThemeVars(token: GlobalToken): CSSProperties {
  return {
    '--kb-radius': `${token.borderRadiusLG}px`,
    '--kb-border': token.colorBorderSecondary,
    '--kb-bg': token.colorBgContainer,
    '--kb-text': token.colorText,
    '--kb-text-secondary': token.colorTextSecondary,
    '--kb-font-size': `${token.fontSize}px`,
    '--kb-success': token.colorSuccess,
    '--kb-success-bg': token.colorSuccessBg,
    '--kb-error': token.colorError,
    '--kb-primary': token.colorPrimary,
    '--kb-primary-bg': token.colorPrimaryBg,
    '--kb-primary-border': token.colorPrimaryBorder,
    '--kb-fill': token.colorFillTertiary,
    '--kb-lane': token.colorFillQuaternary,
  } as CSSProperties;
}

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
  /** Being moved to another lane (shown faded until the board reloads). */
  moving?: boolean;
}

/**
 * A ticket on the board (docs/product/administration.md#screens-and-routes): number, contact name and number, channel icon, last
 * message, time, unread highlight, owner badge and 'Ver Ticket'. Memoised, and plain elements inside
 * (BOARD_CSS): the 'Mover para' menu is an antd Dropdown only once it is opened.
 */
export const KanbanCard = memo(function KanbanCard({ ticket, draggable, onDragStart, lanes, onMove, moving }: KanbanCardProps) {
  const { t } = useTranslation('kanban');
  const [menuOpen, setMenuOpen] = useState(false);
  const ChannelIcon = CHANNEL_ICONS[ticket.channel] ?? MessageOutlined;
  const channel = CHANNEL_ICONS[ticket.channel] ? ticket.channel.replace('api', '') : 'other';
  const unread = ticket.unreadMessages > 0;
  const canMove = Boolean(onMove) && (lanes ?? []).some((lane) => lane.id !== ticket.laneId);
  const moveButton = (
    <button
      type="button"
      className="kb-button"
      aria-label={t('board.moveTo')}
      title={t('board.moveTo')}
      onClick={() => setMenuOpen(true)}
    >
      <SwapOutlined />
    </button>
  );
  return (
    <article
      draggable={draggable && !moving}
      onDragStart={(event) => onDragStart?.(event, ticket)}
      data-testid={`kanban-card-${ticket.id}`}
      data-ticket-id={ticket.id}
      className={`kb-card${unread ? ' kb-unread' : ''}${moving ? ' kb-moving' : ''}`}
    >
      <div className="kb-body">
        <div className="kb-row">
          <span className="kb-line kb-title">
            <ChannelIcon aria-label={t(`board.channels.${channel}`)} />
            <span className="kb-line">
              #{ticket.id} {ticket.contact.name}
            </span>
          </span>
          <span className="kb-muted kb-time">{cardTime(ticket.updatedAt)}</span>
        </div>
        <span className="kb-line kb-muted">{ticket.contact.number ?? ''}</span>
        <div className="kb-row">
          <span className="kb-line kb-message">
            <ChatText text={ticket.lastMessage ?? ''} />
          </span>
          {unread ? (
            <span className="kb-badge" title={t('board.unread', { count: ticket.unreadMessages })}>
              {ticket.unreadMessages}
            </span>
          ) : null}
        </div>
        <div className="kb-row kb-foot">
          {ticket.user ? (
            <span className="kb-line kb-user">
              <UserOutlined />
              {ticket.user.name}
            </span>
          ) : (
            <span className="kb-muted">{t('board.noUser')}</span>
          )}
          <span className="kb-actions">
            {canMove && menuOpen ? (
              <Dropdown
                open
                trigger={['click']}
                onOpenChange={(open) => setMenuOpen(open)}
                menu={{
                  items: (lanes ?? [])
                    .filter((lane) => lane.id !== ticket.laneId)
                    .map((target) => ({ key: target.key, label: target.name })),
                  onClick: ({ key }) => {
                    setMenuOpen(false);
                    onMove?.(ticket, lanes?.find((target) => target.key === key)?.id ?? null);
                  },
                }}
              >
                {moveButton}
              </Dropdown>
            ) : canMove ? (
              moveButton
            ) : null}
            <Link to={`/tickets/${ticket.uuid}`} draggable={false} className="kb-button kb-open">
              {t('board.viewTicket')}
            </Link>
          </span>
        </div>
      </div>
    </article>
  );
});

/** A row whose card is not loaded yet (its lane's page is on its way). */
export const PlaceholderCard = memo(function PlaceholderCard() {
  return (
    <div className="kb-card kb-placeholder" aria-hidden="true">
      <div className="kb-body" />
    </div>
  );
});
