/**
 * Realtime conventions (docs/product/tickets-and-inbox.md#realtime-events): one socket.io namespace per company, named `/<companyId>`,
 * the documented event names, and the rooms that the documented client events join.
 */

/** The namespace of a company. */
export function companyNamespace(companyId: number): string {
  return `/${companyId}`;
}

/** Ticket statuses a client may follow with `joinTickets`. */
export const TICKET_ROOM_STATUSES = ['open', 'pending', 'closed', 'group', 'lgpd', 'nps'] as const;

/** Room names inside a company namespace. Features emit to these; the core joins sockets to them. */
export const ROOMS = {
  /** Every socket of one user (their sessions on all devices). */
  user: (userId: number) => `user:${userId}`,
  /** Sockets that asked for notifications (`joinNotification`). */
  notification: 'notification',
  /** Sockets following a ticket list by status (`joinTickets`). */
  tickets: (status: string) => `tickets:${status}`,
  /** Sockets with one ticket open (`joinChatBox`). */
  chatBox: (ticketId: number | string) => `chatBox:${ticketId}`,
} as const;

/** Client events the core understands (emitted by the browser). */
export const CLIENT_EVENTS = {
  joinNotification: 'joinNotification',
  leaveNotification: 'leaveNotification',
  joinTickets: 'joinTickets',
  leaveTickets: 'leaveTickets',
  joinChatBox: 'joinChatBox',
  joinChatBoxLeave: 'joinChatBoxLeave',
  userStatus: 'userStatus',
} as const;

/** The documented event name for a company channel: `company-{id}-{channel}`. */
export function companyEvent(companyId: number, channel: string): string {
  return `company-${companyId}-${channel}`;
}
