import { useSyncExternalStore } from 'react';

/** Under this width the canvas is hard to use: the editor says so, and still opens. */
const EDITOR_NARROW_QUERY = '(max-width: 767.98px)';

function subscribe(onChange: () => void): () => void {
  const query = globalThis.matchMedia?.(EDITOR_NARROW_QUERY);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** True when the screen is at least 768 px wide (the editor's comfortable size). */
export function useWideEnough(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !(globalThis.matchMedia?.(EDITOR_NARROW_QUERY).matches ?? false),
    () => true,
  );
}
