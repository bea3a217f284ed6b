import { Spin } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';

/** 1-core §9: the next page loads within 100 px of the bottom. */
export const LOAD_MORE_THRESHOLD_PX = 100;

export interface InfiniteScrollProps {
  hasMore: boolean;
  /** A page is being fetched: no second call until it arrives. */
  loading: boolean;
  onLoadMore(): void;
  children: ReactNode;
  /** Height of the scrolling area (the page fills the content area by default). */
  maxHeight?: string;
}

/**
 * A scrolling area that asks for the next page when scrolled near its bottom, and right away while its
 * content is too short to scroll (a tall screen would otherwise never load page 2).
 */
export function InfiniteScroll({
  hasMore,
  loading,
  onLoadMore,
  children,
  maxHeight = 'calc(100vh - 220px)',
}: InfiniteScrollProps) {
  const ref = useRef<HTMLDivElement>(null);
  // asked for a page whose fetch hasn't started yet: don't ask again (scroll events come in bursts)
  const waiting = useRef(false);
  useEffect(() => {
    if (loading) waiting.current = false;
  }, [loading]);
  const check = useCallback(() => {
    const element = ref.current;
    if (!element || !hasMore || loading || waiting.current) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= LOAD_MORE_THRESHOLD_PX) {
      waiting.current = true;
      onLoadMore();
    }
  }, [hasMore, loading, onLoadMore]);

  useEffect(() => {
    // after each page: a page that doesn't fill the area can't be scrolled, so ask for the next one
    const element = ref.current;
    if (element && element.clientHeight > 0 && element.scrollHeight <= element.clientHeight) check();
  });

  return (
    <div ref={ref} onScroll={check} style={{ maxHeight, minHeight: 200, overflowY: 'auto', overflowX: 'hidden' }}>
      {children}
      {loading && hasMore ? (
        <div style={{ textAlign: 'center', padding: 12 }}>
          <Spin size="small" />
        </div>
      ) : null}
    </div>
  );
}
