import { access, defineRoutes, Id, NoBody, NoQuery, StrictObject } from '@balcao/plugin-sdk/server';
import { callerOf } from '../caller';
import { Empty, errorResponses } from '../schemas';
import { addTicketTag, removeTicketKanbanTags } from '../tag.service';

/** A ticket's kanban lane tags (docs/product/administration.md#calls-and-realtime-events: DELETE then PUT moves a ticket between lanes). */
export default defineRoutes((app, ctx) => {
  app.put(
    '/ticket-tags/:ticketId/:tagId',
    {
      schema: {
        summary: 'Put a tag on a ticket',
        errors: { 404: ['ERR_NO_TAG_FOUND', 'ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ ticketId: Id, tagId: Id }),
        body: NoBody,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request, reply) => {
      await addTicketTag(ctx, await callerOf(ctx, request), request.params.ticketId, request.params.tagId);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/ticket-tags/:ticketId',
    {
      schema: {
        summary: 'Remove every tag from a ticket',
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ ticketId: Id }),
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request, reply) => {
      await removeTicketKanbanTags(ctx, await callerOf(ctx, request), request.params.ticketId);
      return reply.status(204).send(null);
    },
  );
});
