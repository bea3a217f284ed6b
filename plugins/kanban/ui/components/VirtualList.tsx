import { type CSSProperties, type ReactNode, type UIEvent, useEffect, useRef, useState } from 'react';
import { visibleWindow } from '../../shared/format';

export interface VirtualListProps {
  /** How many rows the list has (rows not loaded yet included: `renderRow` draws a placeholder for them). */
  count: number;
  /** Every row's height in pixels (cards have a fixed height, so no measuring is needed). */
  rowHeight: number;
  rowKey(index: number): string | number;
  renderRow(index: number): ReactNode;
  /** Told the rows in view (with the overscan) whenever they change: the lane loads what they need. */
  onRange?(start: number, end: number): void;
  /** Shown when there are no rows. */
  empty?: ReactNode;
  style?: CSSProperties;
  testId?: string;
}

/**
 * A vertically scrolled list that mounts only the rows in view: a lane of 5,000 cards keeps a few dozen
 * elements in the page. It fills its parent's height.
 */
export function VirtualList({ count, rowHeight, rowKey, renderRow, onRange, empty, style, testId }: VirtualListProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  // re-render only when the scroll brings other rows into view, not on every scroll event
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop;
    const next = visibleWindow(count, rowHeight, top, height);
    const current = visibleWindow(count, rowHeight, scrollTop, height);
    if (next.start !== current.start || next.end !== current.end) setScrollTop(top);
  };

  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const measure = () => setHeight(element.clientHeight || 600);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const { start, end } = visibleWindow(count, rowHeight, scrollTop, height);
  useEffect(() => {
    onRange?.(start, end);
  }, [onRange, start, end]);

  const rows: ReactNode[] = [];
  for (let index = start; index < end; index++) {
    rows.push(
      <div key={rowKey(index)} style={{ position: 'absolute', top: index * rowHeight, left: 0, right: 0, height: rowHeight }}>
        {renderRow(index)}
      </div>,
    );
  }
  return (
    <div
      ref={viewport}
      onScroll={onScroll}
      data-testid={testId}
      style={{
        overflowY: 'auto',
        position: 'relative',
        flex: 1,
        minHeight: 0,
        ...style,
      }}
    >
      {count === 0 ? empty : <div style={{ height: count * rowHeight, position: 'relative' }}>{rows}</div>}
    </div>
  );
}
