import { definePluginOfAreas, type FeatureArea } from '@balcao/plugin-sdk/server';
import { inboxErrors } from './errors';
import { createInboxService } from './inbox.service';
import { messagesArea } from './messages';
import { privacyArea } from './privacy';
import { seedInboxDemo } from './seed/demo';
import { seedInboxFixtures } from './seed/fixtures';
import { ticketsArea } from './tickets';

/**
 * One part of the inbox, in its own folder: tickets (the list, transitions, notes, logs, visibility and
 * realtime), messages (pages, sending, delivery), directory (contacts, tags, quick replies, the queue
 * and user lists), receive (what channel drivers hand in), search (how a text search is run) and privacy
 * (the company's LGPD duties: a contact's export and erasure, the retention of messages). The
 * loader registers each area's `routes/`; an area here adds what else it has (jobs, handlers, session
 * fields). The directory has nothing else, and receive and search have no routes: they are reached
 * through the `inbox` service and the tickets list.
 */
export type InboxArea = FeatureArea;

/** What belongs to the whole inbox rather than to one area: its error codes, its seeds and the `inbox` service. */
const wholeInbox: InboxArea = {
  errors: inboxErrors,
  seed: { demo: seedInboxDemo, fixtures: seedInboxFixtures },
  register(_app, ctx) {
    ctx.services.provide('inbox', createInboxService(ctx));
  },
};

/**
 * The inbox (docs/product/tickets-and-inbox.md, docs/product/roles-and-permissions.md#roles-in-the-inbox): contacts, tickets, messages, tags, notes, logs and quick replies, and the
 * core side of the channel contract — `ctx.services.use('inbox')` for drivers.
 */
export default definePluginOfAreas('inbox', [wholeInbox, ticketsArea, messagesArea, privacyArea]);
