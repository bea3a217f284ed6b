import { usePermission, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Badge, Flex, Skeleton, Typography, theme } from 'antd';
import type { TFunction } from 'i18next';
import { type CSSProperties, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { MomentTicket, MomentUser } from '../../shared/types';
import { useGetMomentsQuery, useGetMomentUsersQuery } from '../api';
import { AccessDenied } from '../shared/AccessDenied';
import { formatMinutes } from '../shared/format';

const WAITING = new Set(['pending', 'lgpd', 'nps']);
/** The Pending card's key among the agents' ids. */
const PENDING = -1;

/**
 * The panel's look, as one stylesheet of plain classes coloured by the theme's tokens (CSS variables set on
 * the panel's root). A busy panel shows hundreds of tickets: an antd component per ticket (avatar, tags,
 * typography, each with its style hooks and measurements) made the first paint take seconds, where plain
 * elements take milliseconds (docs/insights.md "Measured"). Cards out of view skip their layout and paint
 * (`content-visibility`) until they are scrolled to.
 */
const MOMENTS_CSS = `
.ins-moments-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,300px),1fr));gap:12px;align-items:stretch}
.ins-mcard{content-visibility:auto;contain-intrinsic-size:auto 440px;background:var(--ins-bg);border:1px solid var(--ins-border);border-top:3px solid var(--ins-primary);border-radius:8px;min-width:0;display:flex;flex-direction:column}
.ins-mcard[data-accent=warning]{border-top-color:var(--ins-warning)}
.ins-mcard-head{padding:8px 12px;border-bottom:1px solid var(--ins-split);display:flex;flex-direction:column;min-width:0}
.ins-mcard-title{display:flex;align-items:center;gap:8px;font-weight:600;min-width:0}
.ins-ellipsis{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ins-dot{width:6px;height:6px;border-radius:50%;background:var(--ins-muted);flex:none}
.ins-dot[data-online=true]{background:var(--ins-success)}
.ins-secondary{font-size:12px;color:var(--ins-secondary)}
.ins-mlist{max-height:360px;overflow-y:auto;margin:0;padding:0 8px;list-style:none}
.ins-mitem{display:flex;gap:12px;align-items:center;padding:8px 4px;border-bottom:1px solid var(--ins-split)}
.ins-mitem:last-child{border-bottom:0}
.ins-mitem[data-open=true]{cursor:pointer}
.ins-mitem[data-open=true]:hover,.ins-mitem[data-open=true]:focus-visible{background:var(--ins-hover)}
.ins-avatar{width:32px;height:32px;border-radius:50%;flex:none;background:var(--ins-avatar);color:#fff;display:inline-flex;align-items:center;justify-content:center;overflow:hidden;font-size:14px}
.ins-avatar img{width:100%;height:100%;object-fit:cover}
.ins-mitem-body{min-width:0;flex:1}
.ins-mitem-line{display:flex;flex-wrap:wrap;gap:4px;align-items:center}
.ins-tag{display:inline-block;padding:0 7px;font-size:12px;line-height:20px;border-radius:4px;border:1px solid var(--ins-border);background:var(--ins-fill);color:var(--ins-text);white-space:nowrap}
.ins-tag[data-colored=true]{border-color:transparent;color:#fff}
.ins-empty{padding:24px 12px;text-align:center;color:var(--ins-secondary)}
`;

/**
 * Moments, the live attendance panel (docs/product/tickets-and-inbox.md#screens-and-routes): a Pending card with the tickets waiting, then a card per
 * agent with the tickets they attend — kept live by the company's socket (`company-{id}-moments`, and
 * `company-{id}-user` for online states), never by polling. Admins, and profile users with allowRealTime;
 * a ticket opens at /tickets/{uuid} for admins and for its own agent.
 */
export function MomentsPage() {
  const allowed = usePermission('moments:view');
  return allowed ? <Moments /> : <AccessDenied />;
}

/** The current minute, moved every 30 s, so "for how long" stays true without asking the server. */
function useMinute(everyMs = 30_000): number {
  const [minute, setMinute] = useState(() => Math.floor(Date.now() / 60_000));
  useEffect(() => {
    const timer = setInterval(() => setMinute(Math.floor(Date.now() / 60_000)), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return minute;
}

/** ISO instants of one format sort as plain strings (no collation, which costs per comparison). */
const bySince = (a: MomentTicket, b: MomentTicket) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id - b.id);

function sameTickets(a: MomentTicket[], b: MomentTicket[]): boolean {
  return a.length === b.length && a.every((ticket, index) => ticket === b[index]);
}

/**
 * The tickets by card (the Pending card, then each agent's), the longest first. A card whose tickets didn't
 * change keeps its array from the previous answer, so a socket event re-renders the one or two cards it
 * touches (the cache keeps every untouched ticket object as it was), not the whole panel.
 */
function useCards(tickets: MomentTicket[] | undefined): Map<number, MomentTicket[]> {
  const previous = useRef(new Map<number, MomentTicket[]>());
  return useMemo(() => {
    const cards = new Map<number, MomentTicket[]>();
    for (const ticket of tickets ?? []) {
      const key = WAITING.has(ticket.status) || ticket.user === null ? PENDING : ticket.user.id;
      const list = cards.get(key);
      if (list) list.push(ticket);
      else cards.set(key, [ticket]);
    }
    for (const [key, list] of cards) {
      list.sort(bySince);
      const before = previous.current.get(key);
      if (before && sameTickets(before, list)) cards.set(key, before);
    }
    previous.current = cards;
    return cards;
  }, [tickets]);
}

const NO_TICKETS: MomentTicket[] = [];

function Moments() {
  const { t } = useTranslation('insights');
  const tickets = useGetMomentsQuery();
  const users = useGetMomentUsersQuery();
  const minute = useMinute();
  const session = useSession();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const cards = useCards(tickets.data);

  // one function for every row, whatever the router hands back between renders
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const open = useCallback((path: string) => navigateRef.current(path), []);

  // every agent with tickets, then the others online, then the rest; by name within each
  const agents = useMemo(() => {
    const rank = (user: MomentUser) => ((cards.get(user.id)?.length ?? 0) > 0 ? 0 : user.online ? 1 : 2);
    return [...(users.data ?? [])].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  }, [users.data, cards]);

  const colours = useMemo(
    () =>
      ({
        '--ins-bg': token.colorBgContainer,
        '--ins-border': token.colorBorderSecondary,
        '--ins-split': token.colorSplit,
        '--ins-primary': token.colorPrimary,
        '--ins-warning': token.colorWarning,
        '--ins-success': token.colorSuccess,
        '--ins-muted': token.colorTextQuaternary,
        '--ins-secondary': token.colorTextSecondary,
        '--ins-text': token.colorText,
        '--ins-fill': token.colorFillQuaternary,
        '--ins-hover': token.colorFillTertiary,
        '--ins-avatar': token.colorTextPlaceholder,
      }) as CSSProperties,
    [token],
  );

  // the rows' words, translated once for the panel rather than once per row
  const labels = useMemo<RowLabels>(() => {
    const minutes = new Map<number, string>();
    return {
      open: t('moments.open'),
      notYours: t('moments.notYours'),
      noQueue: t('moments.noQueue'),
      status: (status) => t(`moments.statuses.${status}`),
      since: (whole) => {
        let text = minutes.get(whole);
        if (text === undefined) {
          text = t('moments.since', { time: formatMinutes(t, whole) });
          minutes.set(whole, text);
        }
        return text;
      },
    };
  }, [t]);

  if (tickets.isLoading || users.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  const isAdmin = session?.profile === 'admin' || session?.super === true;
  const pending = cards.get(PENDING) ?? NO_TICKETS;
  return (
    <Flex vertical gap={16} style={colours}>
      <style>{MOMENTS_CSS}</style>
      <Flex align="center" gap={12}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('moments.title')}
        </Typography.Title>
        <Badge status="processing" text={t('moments.live')} />
      </Flex>
      <div className="ins-moments-grid">
        <MomentCard
          t={t}
          labels={labels}
          title={t('moments.pending')}
          subtitle={t('moments.waiting', { count: pending.length })}
          tickets={pending}
          minute={minute}
          isAdmin={isAdmin}
          viewerId={session?.id}
          onOpen={open}
          accent="warning"
          testId="moments-pending"
        />
        {agents.map((agent) => {
          const list = cards.get(agent.id) ?? NO_TICKETS;
          return (
            <MomentCard
              key={agent.id}
              t={t}
              labels={labels}
              title={agent.name}
              subtitle={t('moments.attending', { count: list.length })}
              online={agent.online}
              tickets={list}
              minute={minute}
              isAdmin={isAdmin}
              viewerId={session?.id}
              onOpen={open}
              accent="primary"
              testId={`moments-agent-${agent.id}`}
            />
          );
        })}
      </div>
    </Flex>
  );
}

/** What every row says, translated once for the panel. */
interface RowLabels {
  open: string;
  notYours: string;
  noQueue: string;
  status(status: string): string;
  /** "for 1 h 05" from whole minutes. */
  since(minutes: number): string;
}

interface MomentCardProps {
  t: TFunction;
  labels: RowLabels;
  title: string;
  subtitle: string;
  online?: boolean;
  tickets: MomentTicket[];
  minute: number;
  isAdmin: boolean;
  viewerId: number | undefined;
  onOpen(path: string): void;
  accent: 'warning' | 'primary';
  testId: string;
}

/** One card: re-renders only when its own tickets, title or the minute change. */
const MomentCard = memo(function MomentCard({
  t,
  labels,
  title,
  subtitle,
  online,
  tickets,
  minute,
  isAdmin,
  viewerId,
  onOpen,
  accent,
  testId,
}: MomentCardProps) {
  return (
    <section className="ins-mcard" data-accent={accent} data-testid={testId}>
      <div className="ins-mcard-head">
        <div className="ins-mcard-title">
          {online !== undefined && (
            <span
              className="ins-dot"
              data-online={online}
              role="img"
              aria-label={online ? t('moments.online') : t('moments.offline')}
              title={online ? t('moments.online') : t('moments.offline')}
            />
          )}
          <span className="ins-ellipsis">{title}</span>
        </div>
        <span className="ins-secondary">{subtitle}</span>
      </div>
      {tickets.length === 0 ? (
        <div className="ins-empty">{t('moments.empty')}</div>
      ) : (
        <ul className="ins-mlist">
          {tickets.map((ticket) => (
            <MomentItem
              key={ticket.id}
              labels={labels}
              ticket={ticket}
              minute={minute}
              mayOpen={isAdmin || (ticket.user !== null && ticket.user.id === viewerId)}
              onOpen={onOpen}
            />
          ))}
        </ul>
      )}
    </section>
  );
});

/** One ticket of a card, as plain elements: a change of one ticket re-renders its row only. */
const MomentItem = memo(function MomentItem({
  labels,
  ticket,
  minute,
  mayOpen,
  onOpen,
}: {
  labels: RowLabels;
  ticket: MomentTicket;
  minute: number;
  mayOpen: boolean;
  onOpen(path: string): void;
}) {
  const minutes = Math.round(Math.max(0, minute - Date.parse(ticket.since) / 60_000));
  const open = mayOpen ? () => onOpen(`/tickets/${ticket.uuid}`) : undefined;
  return (
    <li
      className="ins-mitem"
      data-testid={`moment-ticket-${ticket.id}`}
      data-open={mayOpen}
      onClick={open}
      onKeyDown={open ? (event) => event.key === 'Enter' && open() : undefined}
      tabIndex={mayOpen ? 0 : undefined}
      title={mayOpen ? labels.open : labels.notYours}
    >
      <span className="ins-avatar" aria-hidden>
        {ticket.contact.urlPicture ? (
          <img src={ticket.contact.urlPicture} alt="" loading="lazy" />
        ) : (
          (ticket.contact.name.trim()[0] ?? '?').toUpperCase()
        )}
      </span>
      <div className="ins-mitem-body">
        <div className="ins-ellipsis" style={{ fontWeight: 500 }}>
          {ticket.contact.name}
        </div>
        <div className="ins-mitem-line">
          {ticket.queue ? (
            <span
              className="ins-tag"
              data-colored={Boolean(ticket.queue.color)}
              style={ticket.queue.color ? { background: ticket.queue.color } : undefined}
            >
              {ticket.queue.name}
            </span>
          ) : (
            <span className="ins-tag">{labels.noQueue}</span>
          )}
          {ticket.status !== 'open' && <span className="ins-tag">{labels.status(ticket.status)}</span>}
          <span className="ins-secondary">{labels.since(minutes)}</span>
        </div>
      </div>
    </li>
  );
});
