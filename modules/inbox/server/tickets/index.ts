import type { InboxArea } from '../index';
import { inboxState } from '../state';
import { canUserSeeTicketId } from './access';
import { sessionQueues } from './session-queues';

/**
 * Tickets: the list, a ticket's reads and transitions, notes and logs, who may see which ticket
 * (visibility) and the realtime audience of a ticket's events.
 */
export const ticketsArea: InboxArea = {
  on: {
    // who may see which ticket depends on users' fields and queues: re-read them
    'user.updated': (payload, ctx) => inboxState(ctx).realtime.invalidate(payload.companyId),
    'settings.updated': (payload, ctx) => inboxState(ctx).realtime.invalidate(payload.companyId),
  },
  session: async (user, ctx) => ({ queues: await sessionQueues(ctx, user.id) }),
  register(_app, ctx) {
    // joinChatBox: a socket may follow a ticket only when its user may see the ticket
    ctx.realtime.authorizeRoom('chatBox', (session, id) => canUserSeeTicketId(ctx, session, Number(id)));
  },
};
