const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A card's time (docs/product/administration.md#tags-and-kanban): HH:mm when the ticket was updated today, else dd/MM/yyyy,
 * in the viewer's local time. Used by the board and by the widget.
 */
export function cardTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay =
    date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return sameDay
    ? `${pad(date.getHours())}:${pad(date.getMinutes())}`
    : `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** Cards grouped by lane id (null: the default lane), keeping the server's order (newest activity first). */
export function groupByLane<T extends { laneId: number | null }>(tickets: readonly T[]): Map<number | null, T[]> {
  const groups = new Map<number | null, T[]>();
  for (const ticket of tickets) {
    const group = groups.get(ticket.laneId);
    if (group) group.push(ticket);
    else groups.set(ticket.laneId, [ticket]);
  }
  return groups;
}

/**
 * The slice of a fixed-height list that a scrolled viewport shows, with `overscan` rows either side:
 * the board's and the widget's lanes render only these (5,000 cards stay smooth).
 */
export function visibleWindow(
  count: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
  overscan = 4,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { start, end: Math.max(start, end) };
}
