import { describe, expect, it } from 'vitest';
import { makeMessage, makeTicket } from '../testing/fixtures';
import {
  applyAppMessageEventToConversation,
  canDeleteMessage,
  canEditMessage,
  EDIT_WINDOW_MS,
  flattenMessages,
  groupReactions,
  type MessagePages,
  upsertMessage,
  visibleMessages,
  withDaySeparators,
} from './message-list';

const ticket = makeTicket(1);

function conversation(...pages: number[][]): MessagePages {
  return {
    pages: pages.map((ids) => ({
      messages: ids.map((id) => makeMessage(id, { createdAt: new Date(Date.UTC(2024, 4, 1, 10, id)).toISOString() })),
      ticket,
      count: ids.length,
      hasMore: false,
    })),
    pageParams: pages.map((_, index) => index + 1),
  };
}

const ids = (data: MessagePages) => flattenMessages(data).map((message) => message.id);

describe('the conversation cache', () => {
  it('reads older pages first: page 1 is the latest', () => {
    expect(ids(conversation([4, 5, 6], [1, 2, 3]))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('adds new messages at the end of the latest page, in time order', () => {
    const data = conversation([4, 5], [1, 2]);
    upsertMessage(data, makeMessage(7, { createdAt: new Date(Date.UTC(2024, 4, 1, 10, 7)).toISOString() }));
    expect(ids(data)).toEqual([1, 2, 4, 5, 7]);
  });

  it('replaces a message it holds (ack, edit, reaction) wherever it is', () => {
    const data = conversation([4, 5], [1, 2]);
    upsertMessage(data, makeMessage(1, { body: 'editada', isEdited: true }));
    expect(flattenMessages(data)[0]).toMatchObject({ id: 1, body: 'editada', isEdited: true });
    expect(ids(data)).toEqual([1, 2, 4, 5]);
  });

  it('keeps a newer version over an older one arriving late (the failure before the send answer)', () => {
    const data = conversation([], [1]);
    upsertMessage(data, makeMessage(1, { sendStatus: 'failed', updatedAt: '2024-05-01T10:00:02.000Z' }));
    upsertMessage(data, makeMessage(1, { sendStatus: 'pending', updatedAt: '2024-05-01T10:00:01.000Z' }));
    expect(flattenMessages(data)[0]).toMatchObject({ id: 1, sendStatus: 'failed' });
  });

  it("follows only its own ticket's events", () => {
    const data = conversation([1]);
    const other = makeTicket(2);
    applyAppMessageEventToConversation(
      data,
      { action: 'create', message: makeMessage(9, { ticketId: 2 }), ticket: other, contact: other.contact },
      ticket.uuid,
    );
    applyAppMessageEventToConversation(
      data,
      { action: 'update', message: makeMessage(1, { ticketId: 2, body: 'x' }) },
      ticket.uuid,
    );
    expect(flattenMessages(data).map((message) => [message.id, message.body])).toEqual([[1, 'mensagem 1']]);
    applyAppMessageEventToConversation(
      data,
      {
        action: 'create',
        message: makeMessage(2, { createdAt: '2024-05-01T11:00:00.000Z' }),
        ticket: { ...ticket, unreadMessages: 3 },
        contact: ticket.contact,
      },
      ticket.uuid,
    );
    expect(ids(data)).toEqual([1, 2]);
    expect(data.pages[0]?.ticket.unreadMessages).toBe(3);
    applyAppMessageEventToConversation(data, { action: 'delete', messageId: 1, ticketId: ticket.id }, ticket.uuid);
    expect(ids(data)).toEqual([2]);
  });

  it('hides reactions as rows, and deleted messages under the LGPD rule', () => {
    const messages = [makeMessage(1), makeMessage(2, { isDeleted: true }), makeMessage(3, { mediaType: 'reactionMessage' })];
    expect(visibleMessages(messages, false).map((message) => message.id)).toEqual([1, 2]);
    expect(visibleMessages(messages, true).map((message) => message.id)).toEqual([1]);
  });
});

describe('day separators', () => {
  it("put a separator before each new day, 'today' for today", () => {
    const now = new Date();
    const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
    const today = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 0, 1);
    const rows = withDaySeparators(
      [
        makeMessage(1, { createdAt: yesterday.toISOString() }),
        makeMessage(2, { createdAt: yesterday.toISOString() }),
        makeMessage(3, { createdAt: today.toISOString() }),
      ],
      now,
    );
    expect(rows.map((row) => (row.kind === 'day' ? (row.today ? 'HOJE' : 'day') : row.message.id))).toEqual([
      'day',
      1,
      2,
      'HOJE',
      3,
    ]);
  });
});

describe('the message menu rules (docs/product/tickets-and-inbox.md#states-and-transitions)', () => {
  const now = Date.parse('2024-05-01T10:00:00.000Z');
  const own = makeMessage(1, { fromMe: true, userId: 7, createdAt: '2024-05-01T09:50:00.000Z' });

  it('edits only own text messages within 15 minutes', () => {
    expect(canEditMessage(own, 7, now)).toBe(true);
    expect(canEditMessage(own, 7, Date.parse(own.createdAt) + EDIT_WINDOW_MS)).toBe(true);
    expect(canEditMessage(own, 7, Date.parse(own.createdAt) + EDIT_WINDOW_MS + 1)).toBe(false);
    expect(canEditMessage({ ...own, userId: 8 }, 7, now)).toBe(false);
    expect(canEditMessage({ ...own, fromMe: false }, 7, now)).toBe(false);
    expect(canEditMessage({ ...own, mediaType: 'image', mediaUrl: '/media/x' }, 7, now)).toBe(false);
    expect(canEditMessage({ ...own, isDeleted: true }, 7, now)).toBe(false);
  });

  it('deletes only own messages not deleted yet', () => {
    expect(canDeleteMessage(own, 7)).toBe(true);
    expect(canDeleteMessage({ ...own, userId: 8 }, 7)).toBe(false);
    expect(canDeleteMessage({ ...own, isDeleted: true }, 7)).toBe(false);
    expect(canDeleteMessage(makeMessage(2), 7)).toBe(false);
  });

  it('groups reactions by emoji', () => {
    const message = makeMessage(1, {
      reactions: [
        { type: '👍', fromMe: false, userId: null, contactId: 1 },
        { type: '❤️', fromMe: true, userId: 7, contactId: null },
        { type: '👍', fromMe: true, userId: 7, contactId: null },
      ],
    });
    expect(groupReactions(message)).toEqual([
      { type: '👍', count: 2, mine: true },
      { type: '❤️', count: 1, mine: true },
    ]);
  });
});
