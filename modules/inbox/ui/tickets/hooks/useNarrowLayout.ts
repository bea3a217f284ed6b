import { useSyncExternalStore } from 'react';

/** docs/product/tickets-and-inbox.md#screens-and-routes: under 600 px the Tickets screen shows two tabs instead of the side-by-side panels. */
const NARROW_QUERY = '(max-width: 599.98px)';

function subscribe(onChange: () => void): () => void {
  const query = globalThis.matchMedia?.(NARROW_QUERY);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** True on screens narrower than 600 px. */
export function useNarrowLayout(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => globalThis.matchMedia?.(NARROW_QUERY).matches ?? false,
    () => false,
  );
}
