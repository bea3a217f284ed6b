import { access, defineRoutes, Id, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { TicketLogSchema } from '../schemas';
import { listTicketLogs } from '../ticket-log.service';
import { findVisibleTicket } from '../ticket-transitions.service';
import { viewerOf } from '../visibility';

/** A ticket's log (docs/product/tickets-and-inbox.md#entities Ticket log entry; #calls-and-realtime-events `GET /tickets-log/{ticketId}`). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/tickets-log/:ticketId',
    {
      schema: {
        summary: "List a ticket's history (transfers, status changes)",
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ ticketId: Id }),
        querystring: NoQuery,
        response: { 200: Type.Array(TicketLogSchema) },
      },
      config: access.authenticated,
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      await findVisibleTicket(viewerOf(user), request.params.ticketId);
      return listTicketLogs(ctx.db.knex, user.companyId, request.params.ticketId);
    },
  );
});
