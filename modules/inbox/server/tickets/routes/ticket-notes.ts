import { access, defineRoutes, Id, IdParams, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { callerOf } from '../../directory/caller';
import { Empty, errorResponses, TicketNoteSchema } from '../../directory/schemas';
import { createNote, deleteNote, listNotes } from '../note.service';

/** Ticket notes (docs/product/tickets-and-inbox.md#calls-and-realtime-events: POST /ticket-notes, DELETE /ticket-notes/{id}, GET /ticket-notes/list). */
export default defineRoutes((app, ctx) => {
  app.post(
    '/ticket-notes',
    {
      schema: {
        summary: 'Add a private note to a ticket',
        errors: { 404: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TICKET_FOUND'] },
        body: StrictObject({ note: Type.String({ minLength: 2, maxLength: 10_000 }), ticketId: Id, contactId: Id }),
        response: { 201: TicketNoteSchema, ...errorResponses(400, 404) },
      },
      config: access.authenticated,
    },
    async (request, reply) => reply.status(201).send(await createNote(ctx, await callerOf(ctx, request), request.body)),
  );

  app.delete(
    '/ticket-notes/:id',
    {
      schema: {
        summary: 'Delete a private note',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_NOTE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(403, 404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'note' } },
    },
    async (request, reply) => {
      await deleteNote(await callerOf(ctx, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/ticket-notes/list',
    {
      schema: {
        summary: "List a ticket's private notes",
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        querystring: StrictObject({ ticketId: Id, contactId: Id }),
        response: { 200: Type.Array(TicketNoteSchema), ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request) => listNotes(ctx, await callerOf(ctx, request), request.query.ticketId, request.query.contactId),
  );
});
