/**
 * Searchable, paged lists as every feature's pages show them (docs/product/tickets-and-inbox.md#validation, #constants-and-limits): the debounced search, the
 * page number, the narrow-screen switch to lists, and the scrolling area that loads the next page.
 */
// by path, as the rest of the SDK's UI: the login page loads the SDK and must not pull all of antd
import Spin from 'antd/es/spin';
import { type ReactNode, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';

/** docs/product/tickets-and-inbox.md#constants-and-limits: lists and searches wait 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;

/** `value`, once it stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** The search a list sends: the typed text once settled, empty while shorter than `minChars`. */
export function effectiveSearch(typed: string, minChars: number): string {
  const trimmed = typed.trim();
  return trimmed.length >= minChars ? trimmed : '';
}

/**
 * The state of a searchable, paged list: the typed text, the settled search it sends (after 500 ms;
 * contacts start at 3 characters, docs/product/tickets-and-inbox.md#validation) and the page number, back to 1 whenever the search changes.
 */
export function usePagedSearch(minChars = 0) {
  const [typed, setTyped] = useState('');
  const searchParam = effectiveSearch(useDebouncedValue(typed), minChars);
  const [paging, setPaging] = useState({ searchParam, pageNumber: 1 });
  const pageNumber = paging.searchParam === searchParam ? paging.pageNumber : 1;
  const loadMore = useCallback(() => setPaging({ searchParam, pageNumber: pageNumber + 1 }), [searchParam, pageNumber]);
  return { typed, setTyped, searchParam, pageNumber, loadMore };
}

const NARROW_SCREEN_QUERY = '(max-width: 599.98px)';

function subscribeNarrow(onChange: () => void): () => void {
  const query = globalThis.matchMedia?.(NARROW_SCREEN_QUERY);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** True under 600 px wide (docs/product/tickets-and-inbox.md#screens-and-routes): the pages then show lists instead of tables. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => globalThis.matchMedia?.(NARROW_SCREEN_QUERY).matches ?? false,
    () => false,
  );
}

export const LOAD_MORE_THRESHOLD_PX = 100;

/** What the next page of a scrolled list depends on. */
export interface LoadMoreState {
  hasMore: boolean;
  /** A page is being fetched: no second call until it arrives. */
  loading: boolean;
  onLoadMore(): void;
}

/** Where `useLoadMoreOnScroll` loads from, besides `LoadMoreState`. */
export interface LoadMoreOptions extends LoadMoreState {
  /** The end the next page joins: `bottom` (a list, the default) or `top` (older messages above). */
  edge?: 'bottom' | 'top';
  /** How near that end a scroll asks for it (LOAD_MORE_THRESHOLD_PX by default). */
  thresholdPx?: number;
  /**
   * The last page's fetch failed: a content too short to scroll doesn't ask again by itself (that would
   * ask in a loop); a scroll still does.
   */
  failed?: boolean;
}

/**
 * Infinite scroll for a scrolling element: asks for the next page when it is scrolled within
 * LOAD_MORE_THRESHOLD_PX of its bottom (or of its top, `edge`), and right away while its content is too short
 * to scroll (a tall screen would otherwise never load page 2). Put `ref` and `onScroll` on the element.
 */
export function useLoadMoreOnScroll<E extends HTMLElement>({
  hasMore,
  loading,
  onLoadMore,
  edge = 'bottom',
  thresholdPx = LOAD_MORE_THRESHOLD_PX,
  failed = false,
}: LoadMoreOptions) {
  const ref = useRef<E>(null);
  // asked for a page whose fetch hasn't started yet: don't ask again (scroll events come in bursts)
  const waiting = useRef(false);
  useEffect(() => {
    if (loading) waiting.current = false;
  }, [loading]);
  const ask = useCallback(() => {
    if (!hasMore || loading || waiting.current) return;
    waiting.current = true;
    onLoadMore();
  }, [hasMore, loading, onLoadMore]);
  const onScroll = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const distance = edge === 'top' ? element.scrollTop : element.scrollHeight - element.scrollTop - element.clientHeight;
    if (distance <= thresholdPx) ask();
  }, [ask, edge, thresholdPx]);

  useEffect(() => {
    // after each render: content that doesn't fill the element can't be scrolled, so ask for the next page
    // (an element not laid out yet, without a height, waits)
    const element = ref.current;
    if (!failed && element && element.clientHeight > 0 && element.scrollHeight <= element.clientHeight) ask();
  });
  return { ref, onScroll };
}

export interface InfiniteScrollProps extends LoadMoreState {
  children: ReactNode;
  /** Height of the scrolling area (the page fills the content area by default). */
  maxHeight?: string;
}

/** A scrolling area with infinite scroll (`useLoadMoreOnScroll`). */
export function InfiniteScroll({
  hasMore,
  loading,
  onLoadMore,
  children,
  maxHeight = 'calc(100vh - 220px)',
}: InfiniteScrollProps) {
  const { ref, onScroll } = useLoadMoreOnScroll<HTMLDivElement>({ hasMore, loading, onLoadMore });

  return (
    <div ref={ref} onScroll={onScroll} style={{ maxHeight, minHeight: 200, overflowY: 'auto', overflowX: 'hidden' }}>
      {children}
      {loading && hasMore ? (
        <div style={{ textAlign: 'center', padding: 12 }}>
          <Spin size="small" />
        </div>
      ) : null}
    </div>
  );
}
