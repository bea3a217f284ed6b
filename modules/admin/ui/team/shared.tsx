import { StopOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Result, Spin } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';

/** 1-core §9: lists and searches wait 500 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 500;
/** 1-core §9: the next page loads within 100 px of the bottom. */
export const LOAD_MORE_THRESHOLD_PX = 100;

/** `value`, once it stopped changing for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** 1-core §5: user searches start at 3 characters. */
export const MIN_SEARCH_CHARS = 3;

/**
 * The typed search, the settled one it sends (after 500 ms, and only from 3 characters: shorter is no
 * search), and the page number (back to 1 whenever the search changes).
 */
export function usePagedSearch() {
  const [typed, setTyped] = useState('');
  const settled = useDebouncedValue(typed).trim();
  const searchParam = settled.length >= MIN_SEARCH_CHARS ? settled : '';
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

/** True under 600 px wide (1-core §2): the pages then show lists instead of tables. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => globalThis.matchMedia?.(NARROW_SCREEN_QUERY).matches ?? false,
    () => false,
  );
}

/** A scrolling area that asks for the next page near its bottom, and at once while too short to scroll. */
export function InfiniteScroll({
  hasMore,
  loading,
  onLoadMore,
  children,
}: {
  hasMore: boolean;
  loading: boolean;
  onLoadMore(): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // a page asked for whose fetch hasn't started yet: scroll events come in bursts
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
    const element = ref.current;
    if (element && element.clientHeight > 0 && element.scrollHeight <= element.clientHeight) check();
  });
  return (
    <div
      ref={ref}
      onScroll={check}
      style={{ maxHeight: 'calc(100vh - 220px)', minHeight: 200, overflowY: 'auto', overflowX: 'hidden' }}
    >
      {children}
      {loading && hasMore ? (
        <div style={{ textAlign: 'center', padding: 12 }}>
          <Spin size="small" />
        </div>
      ) : null}
    </div>
  );
}

/** What a profile user sees on an admin page (2-administration §2: Users and Settings are denied to them). */
export function AccessDenied() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      icon={<StopOutlined />}
      title={t('team.denied.title')}
      subTitle={t('team.denied.description')}
      extra={
        <Button type="primary" onClick={() => navigate('/tickets')}>
          {t('team.denied.back')}
        </Button>
      }
    />
  );
}
