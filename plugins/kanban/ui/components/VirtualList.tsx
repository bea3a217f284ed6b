import { type ReactNode, useEffect, useRef, useState } from 'react';
import { visibleWindow } from '../../shared/format';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Every row's height in pixels (cards have a fixed height, so no measuring is needed). */
  rowHeight: number;
  itemKey(item: T): string | number;
  renderItem(item: T): ReactNode;
  /** Shown when there are no items. */
  empty?: ReactNode;
  style?: React.CSSProperties;
}

/**
 * A vertically scrolled list that mounts only the rows in view: a lane of 5,000 cards keeps a few dozen
 * elements in the page. It fills its parent's height.
 */
export function VirtualList<T>({ items, rowHeight, itemKey, renderItem, empty, style }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  // re-render only when the scroll brings other rows into view, not on every scroll event
  const onScroll = (event: React.UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop;
    const next = visibleWindow(items.length, rowHeight, top, height);
    const current = visibleWindow(items.length, rowHeight, scrollTop, height);
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

  const { start, end } = visibleWindow(items.length, rowHeight, scrollTop, height);
  return (
    <div ref={viewport} onScroll={onScroll} style={{ overflowY: 'auto', position: 'relative', flex: 1, minHeight: 0, ...style }}>
      {items.length === 0 ? (
        empty
      ) : (
        <div style={{ height: items.length * rowHeight, position: 'relative' }}>
          {items.slice(start, end).map((item, offset) => (
            <div
              key={itemKey(item)}
              style={{ position: 'absolute', top: (start + offset) * rowHeight, left: 0, right: 0, height: rowHeight }}
            >
              {renderItem(item)}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
