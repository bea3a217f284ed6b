import { SearchOutlined } from '@ant-design/icons';
import {
  Can,
  companyEvent,
  showError,
  subscribeSocketEvent,
  toast,
  useAppDispatch,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Button, Card, Flex, Input, Skeleton, Typography, theme } from 'antd';
import { type DragEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { groupByLane } from '../../shared/format';
import {
  type BoardArgs,
  kanbanApi,
  useKanbanAddLaneMutation,
  useKanbanLanesQuery,
  useKanbanRemoveLaneMutation,
  useKanbanTicketsQuery,
} from '../api';
import { BOARD_CSS, boardThemeVars } from '../components/KanbanCard';
import { FIRST_CARDS, KanbanLane, type LaneColumn } from '../components/KanbanLane';
import type { KanbanTicket } from '../types';

/** The default lane's key in drag data and the lane map (tickets without a lane tag). */
const DEFAULT_LANE = 'default';
/** Socket events arrive in bursts (a move is a DELETE then a PUT): one reload per burst. */
const RELOAD_DELAY_MS = 400;
const LANE_WIDTH = 300;
const NO_CARDS: readonly KanbanTicket[] = [];
const NO_IDS: ReadonlySet<number> = new Set();

/** A card dropped on another lane, shown there until the board reloads. */
interface Move {
  card: KanbanTicket;
  to: number | null;
}

/**
 * The board (/Kanban, docs/product/administration.md#screens-and-routes): one lane per kanban tag plus the default lane, a date range
 * with 'Buscar', cards dragged between lanes with the DELETE then PUT of docs/product/administration.md#states-and-transitions and its toasts, and a
 * reload on the company's ticket, appMessage and kanban events.
 *
 * It loads page by page (docs/kanban.md "Pages"): the first cards of every lane with every lane's count,
 * then each lane's further cards as it scrolls to them (KanbanLane). A reload refetches the first cards
 * and the pages in view, keeping what is shown until the fresh answers arrive.
 */
export function KanbanPage() {
  const { t } = useTranslation('kanban');
  const navigate = useNavigate();
  const session = useSession();
  const dispatch = useAppDispatch();
  const { token } = theme.useToken();
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [applied, setApplied] = useState<{ startDate?: string; endDate?: string }>({});
  const args = useMemo<BoardArgs>(() => {
    // the documented client sends the user's queues; admins see every queue
    const queueIds =
      session && session.profile !== 'admin' && session.queues.length > 0 ? session.queues.map((q) => q.id) : undefined;
    return { ...(queueIds ? { queueIds } : {}), ...applied };
  }, [session, applied]);
  const lanes = useKanbanLanesQuery();
  const tickets = useKanbanTicketsQuery(useMemo(() => ({ ...args, perLane: FIRST_CARDS }), [args]));
  const [removeLane] = useKanbanRemoveLaneMutation();
  const [addLane] = useKanbanAddLaneMutation();
  // where a card was dropped, until the reload confirms it
  const [moved, setMoved] = useState<Map<number, Move>>(new Map());

  // a reload refetches the first cards, every lane page in view and the lanes (cache tags of api.ts)
  const reloadNow = useCallback(() => {
    dispatch(kanbanApi.util.invalidateTags(['KanbanTickets', 'KanbanLanes']));
  }, [dispatch]);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!session) return;
    const reload = () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(reloadNow, RELOAD_DELAY_MS);
    };
    const stops = ['ticket', 'appMessage', 'kanban', 'tag'].map((channel) =>
      subscribeSocketEvent(companyEvent(session.companyId, channel), reload),
    );
    // the inbox names its tag channel `company{id}-tag` (the documented spelling)
    stops.push(subscribeSocketEvent(`company${session.companyId}-tag`, reload));
    return () => {
      for (const stop of stops) stop();
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
    };
  }, [session, reloadNow]);

  useEffect(() => {
    // a fresh answer replaces the optimistic positions
    if (tickets.fulfilledTimeStamp) setMoved(new Map());
  }, [tickets.fulfilledTimeStamp]);

  useEffect(() => {
    if (tickets.error) console.error('kanban: tickets failed to load', tickets.error);
    if (lanes.error) console.error('kanban: lanes failed to load', lanes.error);
  }, [tickets.error, lanes.error]);

  const columns: LaneColumn[] = useMemo(
    () => [
      { key: DEFAULT_LANE, id: null, name: t('board.defaultLane'), color: '#8c8c8c' },
      ...(lanes.data ?? []).map((lane) => ({ key: String(lane.id), id: lane.id, name: lane.name, color: lane.color })),
    ],
    [lanes.data, t],
  );

  // every lane's first cards and count; a whole-board answer (no counts) is every lane's cards
  const { firstCards, counts, paged } = useMemo(() => {
    // failures are only logged and the list is emptied (docs/product/administration.md#errors)
    const answer = tickets.error ? undefined : tickets.data;
    const known = new Set(columns.map((column) => column.id));
    if (answer?.laneCounts) {
      return {
        firstCards: groupByLane(answer.tickets),
        counts: new Map(answer.laneCounts.map((lane) => [lane.laneId, lane.count])),
        paged: true,
      };
    }
    // cards of lanes the lane list doesn't know (yet) show in the default lane
    const placed = (answer?.tickets ?? []).map((card) => (known.has(card.laneId) ? card : { ...card, laneId: null }));
    const grouped = groupByLane(placed);
    return { firstCards: grouped, counts: new Map([...grouped].map(([laneId, cards]) => [laneId, cards.length])), paged: false };
  }, [tickets.data, tickets.error, columns]);

  // the optimistic moves, per lane: cards arriving (shown first) and cards leaving (faded)
  const { incoming, leaving } = useMemo(() => {
    const arriving = new Map<number | null, KanbanTicket[]>();
    const departing = new Map<number | null, Set<number>>();
    for (const { card, to } of moved.values()) {
      arriving.set(to, [...(arriving.get(to) ?? []), { ...card, laneId: to }]);
      departing.set(card.laneId, (departing.get(card.laneId) ?? new Set()).add(card.id));
    }
    return { incoming: arriving, leaving: departing };
  }, [moved]);

  const moveCard = async (card: KanbanTicket, toLaneId: number | null) => {
    if (card.laneId === toLaneId) return;
    setMoved((current) => {
      const next = new Map(current);
      // a card moved again leaves from where it first was (and moved back there, stays)
      const original = current.get(card.id)?.card ?? card;
      if (original.laneId === toLaneId) next.delete(card.id);
      else next.set(card.id, { card: original, to: toLaneId });
      return next;
    });
    try {
      await removeLane(card.id).unwrap();
      toast.success(t('toasts.removed'));
      if (toLaneId !== null) {
        await addLane({ ticketId: card.id, laneId: toLaneId }).unwrap();
        toast.success(t('toasts.added'));
      }
    } catch (error) {
      showError(error);
    } finally {
      reloadNow();
    }
  };

  // stable callbacks: the memoised lanes and cards re-render only when their own data changes
  const moveRef = useRef(moveCard);
  moveRef.current = moveCard;
  const dragged = useRef<KanbanTicket | null>(null);
  const onMove = useCallback((ticket: KanbanTicket, laneId: number | null) => void moveRef.current(ticket, laneId), []);
  const onDragStart = useCallback((event: DragEvent<HTMLElement>, ticket: KanbanTicket) => {
    dragged.current = ticket;
    event.dataTransfer.setData('text/plain', JSON.stringify({ ticketId: ticket.id, laneId: ticket.laneId }));
    event.dataTransfer.effectAllowed = 'move';
  }, []);
  const onDropCard = useCallback((event: DragEvent<HTMLElement>, laneId: number | null) => {
    event.preventDefault();
    try {
      const { ticketId } = JSON.parse(event.dataTransfer.getData('text/plain')) as { ticketId: number };
      const card = dragged.current;
      if (card && card.id === ticketId) void moveRef.current(card, laneId);
    } catch {
      // not one of our cards
    } finally {
      dragged.current = null;
    }
  }, []);

  const loading = lanes.isLoading || tickets.isLoading;
  return (
    <Card styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: 'calc(100vh - 120px)', minHeight: 420 } }}>
      <Flex wrap gap={8} align="end" justify="space-between">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('board.title')}
        </Typography.Title>
        <Flex wrap gap={8} align="end">
          <Flex vertical>
            <label htmlFor="kanban-start-date">
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('board.startDate')}
              </Typography.Text>
            </label>
            <Input id="kanban-start-date" type="date" value={startDate} onChange={(event) => setStartDate(event.target.value)} />
          </Flex>
          <Flex vertical>
            <label htmlFor="kanban-end-date">
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('board.endDate')}
              </Typography.Text>
            </label>
            <Input id="kanban-end-date" type="date" value={endDate} onChange={(event) => setEndDate(event.target.value)} />
          </Flex>
          <Button
            type="primary"
            icon={<SearchOutlined />}
            onClick={() => setApplied({ ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) })}
          >
            {t('board.search')}
          </Button>
          <Can permission="dashboard:view">
            <Button onClick={() => navigate('/TagsKanban')}>{t('board.addColumns')}</Button>
          </Can>
        </Flex>
      </Flex>
      {loading ? (
        <Flex gap={12} style={{ overflow: 'hidden' }}>
          {[0, 1, 2].map((index) => (
            <Card key={index} style={{ width: LANE_WIDTH, flexShrink: 0 }}>
              <Skeleton active paragraph={{ rows: 6 }} />
            </Card>
          ))}
        </Flex>
      ) : (
        <div
          data-testid="kanban-board"
          style={{
            display: 'flex',
            gap: 12,
            overflowX: 'auto',
            flex: 1,
            minHeight: 0,
            paddingBottom: 4,
            ...boardThemeVars(token),
          }}
        >
          <style>{BOARD_CSS}</style>
          {columns.map((column) => (
            <KanbanLane
              key={column.key}
              column={column}
              first={firstCards.get(column.id) ?? NO_CARDS}
              count={counts.get(column.id) ?? 0}
              paged={paged}
              args={args}
              incoming={incoming.get(column.id) ?? NO_CARDS}
              leaving={leaving.get(column.id) ?? NO_IDS}
              lanes={columns}
              onMove={onMove}
              onDragStart={onDragStart}
              onDropCard={onDropCard}
            />
          ))}
          {columns.length === 1 ? (
            <Flex align="center" style={{ padding: 16, maxWidth: 320 }}>
              <Typography.Text type="secondary">{t('board.noLanes')}</Typography.Text>
            </Flex>
          ) : null}
        </div>
      )}
    </Card>
  );
}
