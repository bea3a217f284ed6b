import type { Channel, ExistingTicketInfo, Ticket, TicketStatus } from '../../../shared/types';

/** docs/product/tickets-and-inbox.md#constants-and-limits: rating emojis, 1 angry-red … 5 heart-eyes. */
export const RATING_EMOJIS: Record<number, string> = { 1: '😡', 2: '😠', 3: '😐', 4: '🙂', 5: '😍' };

/**
 * The emoji of a rating, or null without one. Ratings are NPS answers, 0 to 10 (the contact answers
 * the connection's rating question, docs/channels/lifecycle.md): the five faces of docs/product/tickets-and-inbox.md#constants-and-limits cover two points each, 9–10
 * being the promoters' heart-eyes.
 */
export function ratingEmoji(rating: Ticket['userRating']): string | null {
  if (!rating) return null;
  const rate = Math.min(10, Math.max(0, Math.round(rating.rate)));
  return RATING_EMOJIS[Math.max(1, Math.ceil(rate / 2))] ?? null;
}

/** docs/product/tickets-and-inbox.md#constants-and-limits: two tags per ticket, then '+N'. */
export const TAGS_SHOWN = 2;

/** The tags a list item shows and how many more there are. */
export function visibleTags<T>(tags: readonly T[]): { shown: T[]; more: number } {
  return { shown: tags.slice(0, TAGS_SHOWN), more: Math.max(0, tags.length - TAGS_SHOWN) };
}

/** The route parameter as a ticket uuid: a missing or 'undefined' id is no ticket (docs/product/tickets-and-inbox.md#screens-and-routes). */
export function ticketUuidParam(value: string | undefined): string | null {
  if (!value || value === 'undefined' || value === 'null') return null;
  return value;
}

/** Whether the composer may send on a ticket (docs/product/tickets-and-inbox.md#screens-and-routes: only open or group). */
export function canCompose(status: TicketStatus): boolean {
  return status === 'open' || status === 'group';
}

/** docs/product/tickets-and-inbox.md#screens-and-routes: non-WhatsApp channels show a notice about the 24-hour reply window (Meta's channels). */
export function hasReplyWindow(channel: Channel): boolean {
  return channel === 'facebook' || channel === 'instagram';
}

/** What the session user may do to tickets (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
export interface TicketPowers {
  userId: number;
  isAdmin: boolean;
  /** userClosePendingTicket enabled, or admin: may ignore pending tickets. */
  canIgnore: boolean;
}

/** An action of a ticket list item or header. */
export type TicketAction = 'accept' | 'transfer' | 'close' | 'ignore' | 'reopen' | 'return';

/**
 * The actions a ticket offers by status and permission (docs/product/tickets-and-inbox.md#screens-and-routes, #states-and-transitions): pending → accept, transfer, ignore;
 * open → return to queue, transfer, close; group → transfer, close; lgpd → ignore; closed → reopen.
 */
export function ticketActions(ticket: Pick<Ticket, 'status' | 'userId'>, powers: TicketPowers): TicketAction[] {
  switch (ticket.status) {
    case 'pending':
      return ['accept', 'transfer', ...(powers.canIgnore ? (['ignore'] as const) : [])];
    case 'open':
      return ['return', 'transfer', 'close'];
    case 'group':
      return ['transfer', 'close'];
    case 'lgpd':
      return powers.canIgnore ? ['ignore'] : [];
    case 'closed':
      return ['reopen'];
    default:
      return [];
  }
}

/**
 * The existing-ticket refusal of `POST /tickets` or a reopen: 409 `ERR_OTHER_OPEN_TICKET` whose `message`
 * is a JSON string (docs/inbox-api.md). Null for any other error or an unreadable body.
 */
export function existingTicketOf(error: unknown): ExistingTicketInfo | null {
  if (typeof error !== 'object' || error === null) return null;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  const { error: code, message } = data as { error?: unknown; message?: unknown };
  if (code !== 'ERR_OTHER_OPEN_TICKET' || typeof message !== 'string') return null;
  try {
    const parsed = JSON.parse(message) as Partial<ExistingTicketInfo>;
    if (typeof parsed.uuid !== 'string') return null;
    return {
      userId: typeof parsed.userId === 'number' ? parsed.userId : null,
      userName: typeof parsed.userName === 'string' ? parsed.userName : null,
      queueName: typeof parsed.queueName === 'string' ? parsed.queueName : null,
      uuid: parsed.uuid,
      status: (parsed.status ?? 'open') as TicketStatus,
    };
  } catch {
    return null;
  }
}

/** The queue an accept should preselect: the ticket's, else the user's only queue (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
export function preselectedQueue(ticketQueueId: number | null, userQueueIds: readonly number[]): number | undefined {
  if (ticketQueueId !== null) return ticketQueueId;
  return userQueueIds.length === 1 ? userQueueIds[0] : undefined;
}

/** The users a transfer may pick: everyone, or those of the chosen queue. */
export function usersOfQueue<U extends { queues: Array<{ id: number }> }>(users: readonly U[], queueId: number | undefined): U[] {
  if (queueId === undefined) return [...users];
  return users.filter((user) => user.queues.some((queue) => queue.id === queueId));
}

/**
 * Whether resolving this ticket opens the rating modal (docs/inbox-api.md "Transitions", docs/channels/lifecycle.md
 * "Rating"): the company's userRating on, an open ticket (not a group) with an agent and no rating yet — the
 * tickets the server would put in `nps`.
 */
export function ratingApplies(ticket: Ticket, ratingsOn: boolean): boolean {
  return ratingsOn && ticket.status === 'open' && !ticket.isGroup && ticket.userId !== null && ticket.userRating === null;
}
