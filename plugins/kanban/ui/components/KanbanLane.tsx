import { skipToken, useTranslation } from '@balcao/plugin-sdk/ui';
import { Empty } from 'antd';
import { type DragEvent, memo, useCallback, useState } from 'react';
import { type BoardArgs, type CardPageArgs, useKanbanCardPageQuery } from '../api';
import type { KanbanTicket } from '../types';
import { CARD_ROW_HEIGHT, KanbanCard, type MoveTarget, PlaceholderCard } from './KanbanCard';
import { VirtualList } from './VirtualList';

/** Cards of every lane in the board's first load (enough for a lane's first screen and a little scroll). */
export const FIRST_CARDS = 20;
/** Cards of one lane per later page, loaded as the lane scrolls to them. */
export const PAGE_CARDS = 50;

/** Rows either side of the rows in view whose page is loaded already (a scroll rarely meets a placeholder). */
const PREFETCH_ROWS = 10;

/** The page (of PAGE_CARDS, after the FIRST_CARDS) that holds a lane's card number `index`. */
const pageOf = (index: number) => Math.floor((index - FIRST_CARDS) / PAGE_CARDS);

export interface LaneColumn extends MoveTarget {
  color: string;
}

export interface KanbanLaneProps {
  column: LaneColumn;
  /** The lane's first cards (the whole lane when the server answered the whole board). */
  first: readonly KanbanTicket[];
  /** How many cards the lane holds on the server. */
  count: number;
  /** Whether the lane's other cards come page by page (false: `first` is the whole lane). */
  paged: boolean;
  /** The board's filters, for the lane's pages. */
  args: BoardArgs;
  /** Cards just moved here (shown first until the board reloads). */
  incoming: readonly KanbanTicket[];
  /** Ids of this lane's cards just moved elsewhere (shown faded until the board reloads). */
  leaving: ReadonlySet<number>;
  lanes: MoveTarget[];
  onMove(ticket: KanbanTicket, laneId: number | null): void;
  onDragStart(event: DragEvent<HTMLElement>, ticket: KanbanTicket): void;
  onDropCard(event: DragEvent<HTMLElement>, laneId: number | null): void;
}

/**
 * A lane of the board: its header (name, count) and its cards in a virtualised list. The first cards
 * come with the board; the rest are loaded a page at a time when the list scrolls to them (a row not
 * loaded yet is a placeholder), at most two pages at once — the ones the rows in view and the next
 * PREFETCH_ROWS either side need.
 */
export const KanbanLane = memo(function KanbanLane({
  column,
  first,
  count,
  paged,
  args,
  incoming,
  leaving,
  lanes,
  onMove,
  onDragStart,
  onDropCard,
}: KanbanLaneProps) {
  const { t } = useTranslation('kanban');
  // the pages the rows in view need: [first, last] (consecutive), or null
  const [span, setSpan] = useState<readonly [number, number] | null>(null);
  const shift = incoming.length;
  const onRange = useCallback(
    (start: number, end: number) => {
      // the pages of the lane's own cards (past the ones moved in and the first cards) in view, and
      // close to it when that is still two pages at most
      const pages = (margin: number) => {
        const from = Math.max(start - shift - margin, FIRST_CARDS);
        const to = Math.min(end - shift + margin, count) - 1;
        return to >= from ? ([pageOf(from), pageOf(to)] as const) : null;
      };
      // no prefetch before the lane is scrolled: a tall screen's first rows don't ask for a page each lane
      const near = pages(start > 0 ? PREFETCH_ROWS : 0);
      const next = !paged ? null : near && near[1] - near[0] > 1 ? pages(0) : near;
      setSpan((current) => (current?.[0] === next?.[0] && current?.[1] === next?.[1] ? current : next));
    },
    [paged, shift, count],
  );
  const pageArgs = (page: number): CardPageArgs => ({
    ...args,
    lane: column.id,
    offset: FIRST_CARDS + page * PAGE_CARDS,
    limit: PAGE_CARDS,
  });
  const lower = useKanbanCardPageQuery(span ? pageArgs(span[0]) : skipToken).currentData;
  const upper = useKanbanCardPageQuery(span && span[1] !== span[0] ? pageArgs(span[1]) : skipToken).currentData;

  const cardAt = (index: number): KanbanTicket | undefined => {
    if (index < shift) return incoming[index];
    const position = index - shift;
    if (!paged || position < FIRST_CARDS) return first[position];
    const page = pageOf(position);
    const cards = span?.[0] === page ? lower?.tickets : span?.[1] === page ? upper?.tickets : undefined;
    return cards?.[(position - FIRST_CARDS) % PAGE_CARDS];
  };
  const shown = count + shift;
  return (
    <section
      data-testid={`kanban-lane-${column.key}`}
      aria-label={column.name}
      className="kb-lane"
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
      }}
      onDrop={(event) => onDropCard(event, column.id)}
      style={{ borderTop: `4px solid ${column.color}` }}
    >
      <div className="kb-lane-head">
        <strong className="kb-line">{column.name}</strong>
        <span className="kb-muted kb-count" data-testid={`kanban-lane-count-${column.key}`}>
          {t('board.count', { count: shown - leaving.size })}
        </span>
      </div>
      <VirtualList
        count={shown}
        rowHeight={CARD_ROW_HEIGHT}
        rowKey={(index) => cardAt(index)?.id ?? `placeholder-${index}`}
        renderRow={(index) => {
          const card = cardAt(index);
          return card ? (
            <KanbanCard
              ticket={card}
              draggable
              onDragStart={onDragStart}
              lanes={lanes}
              onMove={onMove}
              moving={leaving.has(card.id)}
            />
          ) : (
            <PlaceholderCard />
          );
        }}
        onRange={onRange}
        testId={`kanban-lane-list-${column.key}`}
        empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('board.emptyLane')} />}
      />
    </section>
  );
});
