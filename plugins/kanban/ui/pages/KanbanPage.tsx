import { SearchOutlined } from '@ant-design/icons';
import { Can, companyEvent, showError, subscribeSocketEvent, toast, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Card, Empty, Flex, Input, Skeleton, Typography } from 'antd';
import { type DragEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { groupByLane } from '../../shared/format';
import {
  type BoardArgs,
  useKanbanAddLaneMutation,
  useKanbanLanesQuery,
  useKanbanRemoveLaneMutation,
  useKanbanTicketsQuery,
} from '../api';
import { CARD_ROW_HEIGHT, KanbanCard } from '../components/KanbanCard';
import { VirtualList } from '../components/VirtualList';
import type { KanbanTicket } from '../types';

/** The default lane's key in drag data and the lane map (tickets without a lane tag). */
const DEFAULT_LANE = 'default';
/** Socket events arrive in bursts (a move is a DELETE then a PUT): one reload per burst. */
const RELOAD_DELAY_MS = 400;
const LANE_WIDTH = 300;

interface LaneColumn {
  key: string;
  id: number | null;
  name: string;
  color: string;
}

/**
 * The board (/Kanban, 2-administration §2): one lane per kanban tag plus the default lane, a date range
 * with 'Buscar', cards dragged between lanes with the DELETE then PUT of §4 and its toasts, and a
 * reload on the company's ticket, appMessage and kanban events.
 */
export function KanbanPage() {
  const { t } = useTranslation('kanban');
  const navigate = useNavigate();
  const session = useSession();
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [applied, setApplied] = useState<{ startDate?: string; endDate?: string }>({});
  const args = useMemo<BoardArgs>(() => {
    // the spec's client sends the user's queues; admins see every queue
    const queueIds =
      session && session.profile !== 'admin' && session.queues.length > 0 ? session.queues.map((q) => q.id) : undefined;
    return { ...(queueIds ? { queueIds } : {}), ...applied };
  }, [session, applied]);
  const lanes = useKanbanLanesQuery();
  const tickets = useKanbanTicketsQuery(args);
  const [removeLane] = useKanbanRemoveLaneMutation();
  const [addLane] = useKanbanAddLaneMutation();
  // where a card was dropped, until the reload confirms it
  const [moved, setMoved] = useState<Map<number, number | null>>(new Map());

  const refetchTickets = tickets.refetch;
  const refetchLanes = lanes.refetch;
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!session) return;
    const reload = () => {
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
      reloadTimer.current = setTimeout(() => {
        refetchTickets();
        refetchLanes();
      }, RELOAD_DELAY_MS);
    };
    const stops = ['ticket', 'appMessage', 'kanban', 'tag'].map((channel) =>
      subscribeSocketEvent(companyEvent(session.companyId, channel), reload),
    );
    // the inbox names its tag channel `company{id}-tag` (the spec's spelling)
    stops.push(subscribeSocketEvent(`company${session.companyId}-tag`, reload));
    return () => {
      for (const stop of stops) stop();
      if (reloadTimer.current) clearTimeout(reloadTimer.current);
    };
  }, [session, refetchTickets, refetchLanes]);

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

  const grouped = useMemo(() => {
    // failures are only logged and the list is emptied (2-administration §8)
    const cards = tickets.error ? [] : (tickets.data ?? []);
    const known = new Set(columns.map((column) => column.id));
    const placed = cards.map((card) => {
      const laneId = moved.has(card.id) ? (moved.get(card.id) ?? null) : card.laneId;
      return laneId === card.laneId && known.has(laneId) ? card : { ...card, laneId: known.has(laneId) ? laneId : null };
    });
    return groupByLane(placed);
  }, [tickets.data, tickets.error, moved, columns]);

  const moveCard = async (ticketId: number, fromLaneId: number | null, toLaneId: number | null) => {
    if (fromLaneId === toLaneId) return;
    setMoved((current) => new Map(current).set(ticketId, toLaneId));
    try {
      await removeLane(ticketId).unwrap();
      toast.success(t('toasts.removed'));
      if (toLaneId !== null) {
        await addLane({ ticketId, laneId: toLaneId }).unwrap();
        toast.success(t('toasts.added'));
      }
    } catch (error) {
      showError(error);
    } finally {
      refetchTickets();
    }
  };

  // stable callbacks: the memoised cards re-render only when their ticket changes
  const moveRef = useRef(moveCard);
  moveRef.current = moveCard;
  const onMove = useCallback(
    (ticket: KanbanTicket, laneId: number | null) => void moveRef.current(ticket.id, ticket.laneId, laneId),
    [],
  );
  const onDragStart = useCallback((event: DragEvent<HTMLElement>, ticket: KanbanTicket) => {
    event.dataTransfer.setData('text/plain', JSON.stringify({ ticketId: ticket.id, laneId: ticket.laneId }));
    event.dataTransfer.effectAllowed = 'move';
  }, []);
  const onDrop = (event: DragEvent<HTMLElement>, column: LaneColumn) => {
    event.preventDefault();
    try {
      const { ticketId, laneId } = JSON.parse(event.dataTransfer.getData('text/plain')) as {
        ticketId: number;
        laneId: number | null;
      };
      if (typeof ticketId === 'number') void moveCard(ticketId, laneId, column.id);
    } catch {
      // not one of our cards
    }
  };

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
          style={{ display: 'flex', gap: 12, overflowX: 'auto', flex: 1, minHeight: 0, paddingBottom: 4 }}
        >
          {columns.map((column) => {
            const cards = grouped.get(column.id) ?? [];
            return (
              <section
                key={column.key}
                data-testid={`kanban-lane-${column.key}`}
                aria-label={column.name}
                onDragOver={(event) => {
                  event.preventDefault();
                  event.dataTransfer.dropEffect = 'move';
                }}
                onDrop={(event) => onDrop(event, column)}
                style={{
                  width: LANE_WIDTH,
                  flexShrink: 0,
                  display: 'flex',
                  flexDirection: 'column',
                  background: 'rgba(0,0,0,0.03)',
                  borderRadius: 8,
                  borderTop: `4px solid ${column.color}`,
                }}
              >
                <Flex justify="space-between" align="center" style={{ padding: '8px 12px' }}>
                  <Typography.Text strong ellipsis>
                    {column.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" data-testid={`kanban-lane-count-${column.key}`}>
                    {t('board.count', { count: cards.length })}
                  </Typography.Text>
                </Flex>
                <VirtualList
                  items={cards}
                  rowHeight={CARD_ROW_HEIGHT}
                  itemKey={(card) => card.id}
                  renderItem={(card) => (
                    <KanbanCard ticket={card} draggable onDragStart={onDragStart} lanes={columns} onMove={onMove} />
                  )}
                  empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('board.emptyLane')} />}
                />
              </section>
            );
          })}
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
