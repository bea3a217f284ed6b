import { useSyncExternalStore } from 'react';

/**
 * The badge in front of the browser tab's title (the inbox's unread mark, docs/product/tickets-and-inbox.md#constants-and-limits). The shell owns
 * `document.title` (app name, whitelabel); features only say what goes in front of it.
 */
let badge = '';
const listeners = new Set<() => void>();

/** Sets the badge shown before the app name in the tab title ('' for none). */
export function setTitleBadge(next: string): void {
  if (next === badge) return;
  badge = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The current tab-title badge (for the shell). */
export function useTitleBadge(): string {
  return useSyncExternalStore(
    subscribe,
    () => badge,
    () => badge,
  );
}
