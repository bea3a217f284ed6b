import { describe, expect, it } from 'vitest';
import type { AppMessageEvent, Ticket } from '../../../shared/types';
import { ANA, makeMessage, makeTicket } from '../testing/fixtures';
import { type NotificationContext, shouldNotify } from './notifications';

const context: NotificationContext = { viewer: ANA, notifyPending: false, watchedTicketUuid: null };
const created = (ticket: Ticket, message = makeMessage(1, { ticketId: ticket.id })): AppMessageEvent => ({
  action: 'create',
  message,
  ticket,
  contact: ticket.contact,
});

describe('browser notifications (docs/product/roles-and-permissions.md#roles-in-the-inbox)', () => {
  it("notify for the user's own tickets", () => {
    expect(shouldNotify(created(makeTicket(1, { userId: 7 })), context)).toBe(true);
    expect(shouldNotify(created(makeTicket(1, { userId: 8 })), context)).toBe(false);
  });

  it('notify for unassigned tickets within the user’s queues only', () => {
    expect(shouldNotify(created(makeTicket(1, { userId: null, queueId: 2, status: 'open' })), context)).toBe(true);
    expect(shouldNotify(created(makeTicket(1, { userId: null, queueId: 9, status: 'open' })), context)).toBe(false);
    expect(shouldNotify(created(makeTicket(1, { userId: null, queueId: null, status: 'open' })), context)).toBe(false);
    expect(
      shouldNotify(created(makeTicket(1, { userId: null, queueId: null, status: 'open' })), {
        ...context,
        viewer: { ...ANA, allTicket: true },
      }),
    ).toBe(true);
  });

  it('notify for pending tickets only with showNotificationPending', () => {
    const pending = created(makeTicket(1, { userId: null, queueId: 1, status: 'pending' }));
    expect(shouldNotify(pending, context)).toBe(false);
    expect(shouldNotify(pending, { ...context, notifyPending: true })).toBe(true);
  });

  it("stay quiet for the user's own and private messages, updates, and the ticket on screen", () => {
    const ticket = makeTicket(1, { userId: 7 });
    expect(shouldNotify(created(ticket, makeMessage(1, { fromMe: true })), context)).toBe(false);
    expect(shouldNotify(created(ticket, makeMessage(1, { isPrivate: true })), context)).toBe(false);
    expect(shouldNotify({ action: 'update', message: makeMessage(1) }, context)).toBe(false);
    expect(shouldNotify(created(ticket), { ...context, watchedTicketUuid: ticket.uuid })).toBe(false);
  });
});
