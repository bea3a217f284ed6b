import { registerRoutes } from '../area-routes';
import type { InboxArea } from '../index';
import contactsRoutes from './routes/contacts';
import queuesRoutes from './routes/queues';
import quickMessagesRoutes from './routes/quick-messages';
import tagsRoutes from './routes/tags';
import ticketTagsRoutes from './routes/ticket-tags';
import usersListRoutes from './routes/users-list';

/** The directory: contacts, tags (on contacts and tickets), quick replies, and the queue and user lists. */
export const directoryArea: InboxArea = {
  register: (app, ctx) =>
    registerRoutes(app, ctx, [contactsRoutes, queuesRoutes, quickMessagesRoutes, tagsRoutes, ticketTagsRoutes, usersListRoutes]),
};
