import type { AppMessageEvent, Ticket, TicketEvent, TicketStatus } from '../../../shared/types';

/**
 * One ticket list as the screen asks for it (`GET /tickets`, docs/product/tickets-and-inbox.md#calls-and-realtime-events): the tab's status (none for the
 * search view) and the filters. The same object is the RTK Query cache key, so tab badges and lists that
 * ask the same thing share one entry.
 */
export interface TicketListArgs {
  /** The tab's status; undefined for the search view. */
  status?: TicketStatus;
  searchParam?: string;
  searchOnMessages?: boolean;
  showAll?: boolean;
  queueIds?: number[];
  tags?: number[];
  users?: number[];
  whatsapps?: number[];
  /** Statuses of the search view. */
  statusFilter?: TicketStatus[];
  withUnreadMessages?: boolean;
  sortTickets?: 'ASC' | 'DESC';
}

/** One page of `GET /tickets`. */
export interface TicketsPage {
  tickets: Ticket[];
  hasMore: boolean;
  count: number;
}

/** The pages of a list as the infinite query keeps them. */
export interface TicketPages {
  pages: TicketsPage[];
  pageParams: number[];
}

/** Whose lists these are: the session user's fields the membership rules read (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
export interface ListViewer {
  id: number;
  isAdmin: boolean;
  queueIds: number[];
  allTicket: boolean;
  allowGroup: boolean;
}

/** Longest search `GET /tickets` accepts. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The query string of `GET /tickets` (docs/inbox-api.md): arrays as JSON in one parameter, booleans as
 * `true`/`false`, empty filters left out.
 */
export function ticketListParams(args: TicketListArgs, pageNumber: number): Record<string, string> {
  const params: Record<string, string> = { pageNumber: String(pageNumber) };
  if (args.status) params.status = args.status;
  // the server takes searches of up to 200 characters
  const search = args.searchParam?.trim().slice(0, MAX_SEARCH_LENGTH);
  if (search) params.searchParam = search;
  if (search && args.searchOnMessages) params.searchOnMessages = 'true';
  if (args.showAll !== undefined) params.showAll = String(args.showAll);
  if (args.withUnreadMessages) params.withUnreadMessages = 'true';
  if (args.sortTickets) params.sortTickets = args.sortTickets;
  const arrays: Array<[string, unknown[] | undefined]> = [
    ['queueIds', args.queueIds],
    ['tags', args.tags],
    ['users', args.users],
    ['whatsapps', args.whatsapps],
    ['statusFilter', args.statusFilter],
  ];
  for (const [name, values] of arrays) {
    if (values && values.length > 0) params[name] = JSON.stringify(values);
  }
  return params;
}

/**
 * Whether a ticket belongs in a list, by the rules the server lists with (docs/inbox-api.md): the tab's
 * status; without showAll only the user's own tickets and the unassigned ones of their queues (queue-less
 * ones with allTicket or as admin; groups only with allowGroup); then the filters. `undefined` when the
 * list can't tell (a text search runs on the server): such a list only updates tickets it already holds.
 */
export function belongsToList(ticket: Ticket, args: TicketListArgs, viewer: ListViewer): boolean | undefined {
  if (args.status) {
    if (ticket.status !== args.status) return false;
  } else if (args.statusFilter && args.statusFilter.length > 0 && !args.statusFilter.includes(ticket.status)) {
    return false;
  }
  if (!args.showAll && !inViewersOwnLists(ticket, viewer)) return false;
  if (args.queueIds && args.queueIds.length > 0 && (ticket.queueId === null || !args.queueIds.includes(ticket.queueId))) {
    return false;
  }
  if (args.users && args.users.length > 0 && (ticket.userId === null || !args.users.includes(ticket.userId))) return false;
  if (
    args.whatsapps &&
    args.whatsapps.length > 0 &&
    (ticket.whatsappId === null || !args.whatsapps.includes(ticket.whatsappId))
  ) {
    return false;
  }
  if (args.tags && args.tags.length > 0 && !ticket.tags.some((tag) => args.tags?.includes(tag.id))) return false;
  if (args.withUnreadMessages && ticket.unreadMessages <= 0) return false;
  if (args.searchParam?.trim()) return undefined;
  // the search view of a profile user never covers all tickets; of an admin, everything: both are the server's call
  if (!args.status) return undefined;
  return true;
}

/** The user's own tickets and the unassigned ones of their queues (the lists without showAll). */
export function inViewersOwnLists(ticket: Ticket, viewer: ListViewer): boolean {
  if (ticket.userId === viewer.id) return true;
  if (ticket.userId !== null) return false;
  if (ticket.isGroup && !viewer.allowGroup && !viewer.isAdmin) return false;
  if (ticket.queueId === null) return viewer.allTicket || viewer.isAdmin;
  return viewer.queueIds.includes(ticket.queueId);
}

/** Whether `a` comes before `b` in a list sorted by `updatedAt` (newest first unless ASC). */
function comesBefore(a: Ticket, b: Ticket, order: 'ASC' | 'DESC'): boolean {
  const difference = Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
  return order === 'ASC' ? difference < 0 : difference > 0;
}

/** Removes a ticket from every page; true when it was there. */
function removeFromPages(data: TicketPages, ticketId: number): boolean {
  let removed = false;
  for (const page of data.pages) {
    const index = page.tickets.findIndex((item) => item.id === ticketId);
    if (index >= 0) {
      page.tickets.splice(index, 1);
      removed = true;
    }
  }
  return removed;
}

/**
 * Inserts a ticket at its place by `updatedAt` among the loaded pages. A ticket that sorts after every
 * loaded one, while more pages exist, is left for the page that will bring it. True when inserted.
 */
function insertSorted(data: TicketPages, ticket: Ticket, order: 'ASC' | 'DESC'): boolean {
  for (const page of data.pages) {
    const index = page.tickets.findIndex((item) => comesBefore(ticket, item, order));
    if (index >= 0) {
      page.tickets.splice(index, 0, ticket);
      return true;
    }
  }
  const last = data.pages[data.pages.length - 1];
  if (!last || last.hasMore) return false;
  last.tickets.push(ticket);
  return true;
}

/** Adds `delta` to the list's count (the tab badge reads the first page's). */
function adjustCount(data: TicketPages, delta: number): void {
  for (const page of data.pages) page.count = Math.max(0, page.count + delta);
}

/**
 * Applies a changed ticket to a cached list: it moves to its place when it belongs, leaves when it no
 * longer does (a ticket whose status no longer matches the tab leaves it), and is only refreshed in place
 * when the list can't tell. Mutates `data` (an immer draft).
 */
export function applyTicketToList(data: TicketPages, ticket: Ticket, args: TicketListArgs, viewer: ListViewer): void {
  const belongs = belongsToList(ticket, args, viewer);
  if (belongs === undefined) {
    for (const page of data.pages) {
      const index = page.tickets.findIndex((item) => item.id === ticket.id);
      if (index >= 0) page.tickets[index] = ticket;
    }
    return;
  }
  const wasThere = removeFromPages(data, ticket.id);
  if (!belongs) {
    if (wasThere) adjustCount(data, -1);
    return;
  }
  // a ticket sorting past the loaded pages is still in the list (counted), just not loaded yet
  insertSorted(data, ticket, args.sortTickets ?? 'DESC');
  if (!wasThere) adjustCount(data, 1);
}

/** Removes a ticket from a cached list (deleted, or out of the user's sight). */
export function removeTicketFromList(data: TicketPages, ticketId: number): void {
  if (removeFromPages(data, ticketId)) adjustCount(data, -1);
}

/** Applies a `company-{id}-ticket` event to a cached list. */
export function applyTicketEvent(data: TicketPages, event: TicketEvent, args: TicketListArgs, viewer: ListViewer): void {
  if (event.action === 'update') applyTicketToList(data, event.ticket, args, viewer);
  else removeTicketFromList(data, event.ticketId);
}

/** Applies a `company-{id}-appMessage` event to a cached list: a new message moves its ticket. */
export function applyAppMessageEventToList(
  data: TicketPages,
  event: AppMessageEvent,
  args: TicketListArgs,
  viewer: ListViewer,
): void {
  if (event.action === 'create') applyTicketToList(data, event.ticket, args, viewer);
}

/** The loaded tickets in order, each once (pages may overlap after live moves). */
export function flattenTickets(data: TicketPages | undefined): Ticket[] {
  if (!data) return [];
  const seen = new Set<number>();
  const tickets: Ticket[] = [];
  for (const page of data.pages) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      tickets.push(ticket);
    }
  }
  return tickets;
}

/** The list's total (the tab badge): the first page's count. */
export function listCount(data: TicketPages | undefined): number | undefined {
  return data?.pages[0]?.count;
}
