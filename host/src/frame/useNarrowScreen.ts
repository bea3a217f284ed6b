import { useSyncExternalStore } from 'react';

/** docs/product/tickets-and-inbox.md#screens-and-routes: under 600 px wide the menu becomes a temporary drawer. */
export const NARROW_SCREEN_QUERY = '(max-width: 599.98px)';

function subscribe(onChange: () => void): () => void {
  const query = globalThis.matchMedia?.(NARROW_SCREEN_QUERY);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** True on screens narrower than 600 px. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => globalThis.matchMedia?.(NARROW_SCREEN_QUERY).matches ?? false,
    () => false,
  );
}
