import { describe, expect, it } from 'vitest';
import { ANA, makeTicket, pagesOf } from '../testing/fixtures';
import {
  applyAppMessageEventToList,
  applyTicketEvent,
  applyTicketToList,
  belongsToList,
  flattenTickets,
  listCount,
  removeTicketFromList,
  ticketListParams,
} from './ticket-list';

describe('the GET /tickets query string (docs/inbox-api.md)', () => {
  it('sends arrays as JSON, booleans as true/false, and leaves empty filters out', () => {
    expect(
      ticketListParams(
        { status: 'open', showAll: false, queueIds: [1, 2], tags: [], withUnreadMessages: true, searchParam: '  ' },
        3,
      ),
    ).toEqual({ pageNumber: '3', status: 'open', showAll: 'false', queueIds: '[1,2]', withUnreadMessages: 'true' });
  });

  it('sends the search, and searchOnMessages only with a search', () => {
    expect(ticketListParams({ searchParam: ' ana ', searchOnMessages: true, statusFilter: ['closed'] }, 1)).toEqual({
      pageNumber: '1',
      searchParam: 'ana',
      searchOnMessages: 'true',
      statusFilter: '["closed"]',
    });
    expect(ticketListParams({ searchOnMessages: true }, 1)).toEqual({ pageNumber: '1' });
    expect(ticketListParams({ searchParam: 'x'.repeat(300) }, 1).searchParam).toHaveLength(200);
  });
});

describe('tab membership (docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  const openTab = { status: 'open' as const, showAll: false };
  const pendingTab = { status: 'pending' as const, showAll: false };

  it('follows the tab status', () => {
    expect(belongsToList(makeTicket(1, { status: 'open' }), openTab, ANA)).toBe(true);
    expect(belongsToList(makeTicket(1, { status: 'closed' }), openTab, ANA)).toBe(false);
  });

  it("without showAll keeps the user's own tickets and the unassigned ones of their queues", () => {
    expect(belongsToList(makeTicket(1, { status: 'open', userId: 8 }), openTab, ANA)).toBe(false);
    expect(belongsToList(makeTicket(1, { status: 'open', userId: 8 }), { ...openTab, showAll: true }, ANA)).toBe(true);
    expect(belongsToList(makeTicket(2, { status: 'pending', userId: null, queueId: 2 }), pendingTab, ANA)).toBe(true);
    expect(belongsToList(makeTicket(3, { status: 'pending', userId: null, queueId: 9 }), pendingTab, ANA)).toBe(false);
  });

  it('takes queue-less tickets with allTicket (or as admin), groups only with allowGroup', () => {
    const queueless = makeTicket(4, { status: 'pending', userId: null, queueId: null, queue: null });
    expect(belongsToList(queueless, pendingTab, ANA)).toBe(false);
    expect(belongsToList(queueless, pendingTab, { ...ANA, allTicket: true })).toBe(true);
    expect(belongsToList(queueless, pendingTab, { ...ANA, isAdmin: true })).toBe(true);
    const group = makeTicket(5, { status: 'pending', userId: null, isGroup: true });
    expect(belongsToList(group, pendingTab, ANA)).toBe(false);
    expect(belongsToList(group, pendingTab, { ...ANA, allowGroup: true })).toBe(true);
  });

  it('applies the filters: queues, users, connections, tags, unread only', () => {
    const ticket = makeTicket(1, { queueId: 2, whatsappId: 3, unreadMessages: 0, tags: [{ id: 5, name: 'vip', color: '#f00' }] });
    expect(belongsToList(ticket, { ...openTab, queueIds: [1] }, ANA)).toBe(false);
    expect(belongsToList(ticket, { ...openTab, queueIds: [2] }, ANA)).toBe(true);
    expect(belongsToList(ticket, { ...openTab, users: [8] }, ANA)).toBe(false);
    expect(belongsToList(ticket, { ...openTab, whatsapps: [4] }, ANA)).toBe(false);
    expect(belongsToList(ticket, { ...openTab, tags: [5, 6] }, ANA)).toBe(true);
    expect(belongsToList(ticket, { ...openTab, tags: [6] }, ANA)).toBe(false);
    expect(belongsToList(ticket, { ...openTab, withUnreadMessages: true }, ANA)).toBe(false);
  });

  it("can't tell for a text search or the search view: the server decides", () => {
    expect(belongsToList(makeTicket(1), { ...openTab, searchParam: 'ana' }, ANA)).toBeUndefined();
    expect(belongsToList(makeTicket(1), {}, ANA)).toBeUndefined();
    expect(belongsToList(makeTicket(1, { status: 'closed' }), { statusFilter: ['open'] }, ANA)).toBe(false);
  });
});

describe('patching a cached list', () => {
  const openTab = { status: 'open' as const, showAll: false };
  const t1 = makeTicket(1, { updatedAt: '2024-05-01T10:00:00.000Z' });
  const t2 = makeTicket(2, { updatedAt: '2024-05-01T09:00:00.000Z' });
  const t3 = makeTicket(3, { updatedAt: '2024-05-01T08:00:00.000Z' });

  it('puts a newly matching ticket at its place by updatedAt and counts it', () => {
    const data = pagesOf({ tickets: [t1, t3], count: 2 });
    applyTicketToList(data, t2, openTab, ANA);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([1, 2, 3]);
    expect(listCount(data)).toBe(3);
  });

  it('moves an updated ticket to the top without counting it twice', () => {
    const data = pagesOf({ tickets: [t1, t2, t3], count: 3 });
    applyTicketToList(data, { ...t3, updatedAt: '2024-05-01T11:00:00.000Z', lastMessage: 'novo' }, openTab, ANA);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([3, 1, 2]);
    expect(flattenTickets(data)[0]?.lastMessage).toBe('novo');
    expect(listCount(data)).toBe(3);
  });

  it('takes a ticket out of a tab whose status it no longer has', () => {
    const data = pagesOf({ tickets: [t1, t2], count: 2 });
    applyTicketToList(data, { ...t2, status: 'closed' }, openTab, ANA);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([1]);
    expect(listCount(data)).toBe(1);
    // a ticket that was never there changes nothing
    applyTicketToList(data, { ...t3, status: 'closed' }, openTab, ANA);
    expect(listCount(data)).toBe(1);
  });

  it('leaves for the next page a ticket that sorts past the loaded ones, still counting it', () => {
    const data = pagesOf({ tickets: [t1, t2], hasMore: true, count: 50 });
    applyTicketToList(data, t3, openTab, ANA);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([1, 2]);
    expect(listCount(data)).toBe(51);
  });

  it('only refreshes tickets it holds when it cannot tell (a text search)', () => {
    const search = { searchParam: 'contato' };
    const data = pagesOf({ tickets: [t1], count: 1 });
    applyTicketToList(data, { ...t1, lastMessage: 'mudou' }, search, ANA);
    applyTicketToList(data, t2, search, ANA);
    expect(flattenTickets(data).map((ticket) => [ticket.id, ticket.lastMessage])).toEqual([[1, 'mudou']]);
  });

  it('removes deleted tickets and those out of sight', () => {
    const data = pagesOf({ tickets: [t1, t2, t3], count: 3 });
    applyTicketEvent(data, { action: 'delete', ticketId: 2 }, openTab, ANA);
    applyTicketEvent(data, { action: 'removeFromList', ticketId: 3 }, openTab, ANA);
    removeTicketFromList(data, 99);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([1]);
    expect(listCount(data)).toBe(1);
  });

  it('moves a ticket on a new message, and ignores message updates', () => {
    const data = pagesOf({ tickets: [t1, t2], count: 2 });
    const moved = { ...t2, updatedAt: '2024-05-01T12:00:00.000Z', unreadMessages: 1 };
    applyAppMessageEventToList(data, { action: 'update', message: {} as never }, openTab, ANA);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([1, 2]);
    applyAppMessageEventToList(
      data,
      { action: 'create', message: {} as never, ticket: moved, contact: moved.contact },
      openTab,
      ANA,
    );
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([2, 1]);
  });

  it('sorts oldest first when the list asks for ASC', () => {
    const data = pagesOf({ tickets: [t3, t1], count: 2 });
    applyTicketToList(data, t2, { ...openTab, sortTickets: 'ASC' }, ANA);
    expect(flattenTickets(data).map((ticket) => ticket.id)).toEqual([3, 2, 1]);
  });

  it('shows each ticket once even when pages overlap', () => {
    expect(flattenTickets(pagesOf({ tickets: [t1, t2] }, { tickets: [t2, t3] })).map((ticket) => ticket.id)).toEqual([1, 2, 3]);
    expect(flattenTickets(undefined)).toEqual([]);
  });
});
