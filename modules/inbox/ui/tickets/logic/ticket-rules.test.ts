import { describe, expect, it } from 'vitest';
import {
  canCompose,
  existingTicketOf,
  hasReplyWindow,
  preselectedQueue,
  ratingEmoji,
  ticketActions,
  ticketUuidParam,
  usersOfQueue,
  visibleTags,
} from './ticket-rules';

const agent = { userId: 7, isAdmin: false, canIgnore: false };
const closer = { userId: 7, isAdmin: false, canIgnore: true };

describe('list item details (docs/product/tickets-and-inbox.md#constants-and-limits)', () => {
  it('maps ratings 1 to 5 to their emojis', () => {
    // NPS 0–10 over the five faces
    expect([0, 2, 4, 6, 8, 10].map((rate) => ratingEmoji({ rate }))).toEqual(['😡', '😡', '😠', '😐', '🙂', '😍']);
    expect([3, 5, 7, 9].map((rate) => ratingEmoji({ rate }))).toEqual(['😠', '😐', '🙂', '😍']);
    expect(ratingEmoji(null)).toBeNull();
  });

  it('shows two tags and counts the rest', () => {
    expect(visibleTags(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b'], more: 2 });
    expect(visibleTags(['a'])).toEqual({ shown: ['a'], more: 0 });
  });
});

describe('the route parameter (docs/product/tickets-and-inbox.md#screens-and-routes)', () => {
  it("reads a missing or 'undefined' id as no ticket", () => {
    expect(ticketUuidParam(undefined)).toBeNull();
    expect(ticketUuidParam('undefined')).toBeNull();
    expect(ticketUuidParam('')).toBeNull();
    expect(ticketUuidParam('5e2c1f9a-0000-4000-8000-000000000001')).toBe('5e2c1f9a-0000-4000-8000-000000000001');
  });
});

describe('the composer and the 24-hour notice (docs/product/tickets-and-inbox.md#screens-and-routes)', () => {
  it('composes only on open and group tickets', () => {
    expect(canCompose('open')).toBe(true);
    expect(canCompose('group')).toBe(true);
    expect(canCompose('pending')).toBe(false);
    expect(canCompose('closed')).toBe(false);
  });

  it("shows the reply window notice on Meta's channels, not on WhatsApp", () => {
    expect(hasReplyWindow('facebook')).toBe(true);
    expect(hasReplyWindow('instagram')).toBe(true);
    expect(hasReplyWindow('whatsapp')).toBe(false);
    expect(hasReplyWindow('whatsappapi')).toBe(false);
  });
});

describe('ticket actions by status and permission (docs/product/tickets-and-inbox.md#screens-and-routes, #states-and-transitions, docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  it('offers accept and transfer on pending tickets, ignore only to those allowed', () => {
    expect(ticketActions({ status: 'pending', userId: null }, agent)).toEqual(['accept', 'transfer']);
    expect(ticketActions({ status: 'pending', userId: null }, closer)).toEqual(['accept', 'transfer', 'ignore']);
    expect(ticketActions({ status: 'lgpd', userId: null }, agent)).toEqual([]);
    expect(ticketActions({ status: 'lgpd', userId: null }, closer)).toEqual(['ignore']);
  });

  it('offers return, transfer and close on open tickets, reopen on closed ones', () => {
    expect(ticketActions({ status: 'open', userId: 7 }, agent)).toEqual(['return', 'transfer', 'close']);
    expect(ticketActions({ status: 'group', userId: 7 }, agent)).toEqual(['transfer', 'close']);
    expect(ticketActions({ status: 'closed', userId: 7 }, agent)).toEqual(['reopen']);
    expect(ticketActions({ status: 'nps', userId: 7 }, agent)).toEqual([]);
  });
});

describe('the existing-ticket refusal (docs/inbox-api.md)', () => {
  const refusal = (message: unknown, error = 'ERR_OTHER_OPEN_TICKET') => ({ status: 409, data: { error, message } });

  it('reads the JSON string of the 409 body', () => {
    const info = { userId: 7, userName: 'Ana', queueName: 'Vendas', uuid: 'abc', status: 'open' };
    expect(existingTicketOf(refusal(JSON.stringify(info)))).toEqual(info);
    expect(existingTicketOf(refusal(JSON.stringify({ ...info, userId: null, userName: null })))).toMatchObject({
      userId: null,
      userName: null,
    });
  });

  it('is null for other errors and unreadable bodies', () => {
    expect(existingTicketOf(refusal('{not json'))).toBeNull();
    expect(existingTicketOf(refusal(JSON.stringify({ userId: 1 })))).toBeNull();
    expect(existingTicketOf(refusal('{}', 'ERR_NO_PERMISSION'))).toBeNull();
    expect(existingTicketOf(new Error('x'))).toBeNull();
    expect(existingTicketOf(null)).toBeNull();
  });
});

describe('queues and users of the dialogs (docs/product/tickets-and-inbox.md#states-and-transitions, docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  it("preselects the ticket's queue, else a single-queue user's only queue", () => {
    expect(preselectedQueue(3, [1])).toBe(3);
    expect(preselectedQueue(null, [1])).toBe(1);
    expect(preselectedQueue(null, [1, 2])).toBeUndefined();
    expect(preselectedQueue(null, [])).toBeUndefined();
  });

  it('offers for a transfer the users of the chosen queue', () => {
    const users = [
      { id: 1, queues: [{ id: 1 }] },
      { id: 2, queues: [{ id: 2 }] },
      { id: 3, queues: [{ id: 1 }, { id: 2 }] },
    ];
    expect(usersOfQueue(users, 2).map((user) => user.id)).toEqual([2, 3]);
    expect(usersOfQueue(users, undefined).map((user) => user.id)).toEqual([1, 2, 3]);
  });
});
