import type { AppMessageEvent } from '../../../shared/types';
import type { ListViewer } from './ticket-list';

/** What decides whether a new message raises a browser notification. */
export interface NotificationContext {
  viewer: ListViewer;
  /** Company setting showNotificationPending: pending tickets notify too. */
  notifyPending: boolean;
  /** The uuid of the ticket on screen, when the page is visible and focused (its messages need no notification). */
  watchedTicketUuid: string | null;
}

/**
 * docs/product/roles-and-permissions.md#roles-in-the-inbox: notifications only for tickets assigned to the user, or unassigned within their queues
 * (queue-less ones with allTicket); pending ones only with showNotificationPending. Never for the user's
 * own or private messages, nor for the ticket the user is looking at.
 */
export function shouldNotify(event: AppMessageEvent, context: NotificationContext): boolean {
  if (event.action !== 'create') return false;
  const { message, ticket } = event;
  if (message.fromMe || message.isPrivate || message.mediaType === 'reactionMessage') return false;
  if (context.watchedTicketUuid === ticket.uuid) return false;
  if (ticket.status === 'pending' && !context.notifyPending) return false;
  if (ticket.status === 'closed') return false;
  const { viewer } = context;
  if (ticket.userId === viewer.id) return true;
  if (ticket.userId !== null) return false;
  if (ticket.queueId === null) return viewer.allTicket;
  return viewer.queueIds.includes(ticket.queueId);
}
