import type { SessionState, SessionUser } from '@balcao/plugin-sdk/ui';
import { listViewerOf } from '../logic/session';
import type { ListViewer } from '../logic/ticket-list';

/** Tag types of the Tickets screen's cache entries. */
export const TICKETS_TAG_TYPES = ['TicketList', 'TicketLog', 'TicketNotes', 'Queue', 'UserList', 'Connection'] as const;

/** The session user, read from the store handed to lifecycles and `onQueryStarted`. */
export function sessionUserOf(state: unknown): SessionUser | null {
  return (state as { session?: SessionState }).session?.user ?? null;
}

/** The session user as the list rules read it, or null without a session. */
export function listViewerFromState(state: unknown): ListViewer | null {
  const user = sessionUserOf(state);
  return user ? listViewerOf(user) : null;
}
