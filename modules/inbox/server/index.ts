import { definePlugin } from '@balcao/plugin-sdk/server';
import { inboxErrors } from './errors';
import { deliverMessageJob } from './jobs/deliver-message';
import { seedInboxDemo } from './seed/demo';
import { seedInboxFixtures } from './seed/fixtures';
import { createInboxService } from './services/inbox-service';
import { inboxState } from './services/inbox-state';
import { sessionQueues } from './services/session-queues';
import { canUserSeeTicketId } from './services/ticket-access';

/**
 * The inbox (docs/product/tickets-and-inbox.md, docs/product/roles-and-permissions.md#roles-in-the-inbox): contacts, tickets, messages, tags, notes, logs and quick replies, and the
 * core side of the channel contract — `ctx.services.use('inbox')` for drivers.
 */
export default definePlugin({
  id: 'inbox',
  errors: inboxErrors,
  jobs: {
    'deliver-message': { handler: deliverMessageJob, concurrency: 4 },
  },
  on: {
    // who may see which ticket depends on users' fields and queues: re-read them
    'user.updated': (payload, ctx) => inboxState(ctx).realtime.invalidate(payload.companyId),
    'settings.updated': (payload, ctx) => inboxState(ctx).realtime.invalidate(payload.companyId),
  },
  session: async (user, ctx) => ({ queues: await sessionQueues(ctx, user.id) }),
  seed: { demo: seedInboxDemo, fixtures: seedInboxFixtures },
  register(_app, ctx) {
    ctx.services.provide('inbox', createInboxService(ctx));
    // joinChatBox: a socket may follow a ticket only when its user may see the ticket
    ctx.realtime.authorizeRoom('chatBox', (session, id) => canUserSeeTicketId(ctx, session, Number(id)));
  },
});
