import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

/** 1-core §9: lists and searches wait 500 ms after the last keystroke. */
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
 * contacts start at 3 characters, 1-core §5) and the page number, back to 1 whenever the search changes.
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

/** True under 600 px wide (1-core §2): the pages then show lists instead of tables. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => globalThis.matchMedia?.(NARROW_SCREEN_QUERY).matches ?? false,
    () => false,
  );
}
