import { AppError, access, defineRoutes, Id, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { publishLive } from '../live';

/**
 * `POST /webchat-typing/:ticketId` `{ typing }` → 204: the inbox composer tells the visitor of a webchat
 * ticket that an agent is typing (debounced by the composer). A ticket the agent can't see (the inbox's
 * visibility rule, through the SDK) is answered as absent, as every inbox route does; of those they see,
 * only someone who may work on it: an admin, its agent, or — while nobody took it — an agent of its queue.
 * Other channels: nothing to do.
 */
export default defineRoutes((app, ctx) => {
  app.post(
    '/webchat-typing/:ticketId',
    {
      schema: {
        summary: 'Tell the webchat visitor the agent is typing',
        // 404: a ticket the agent can't see; 403: one they see but may not work on
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ ticketId: Id }),
        querystring: NoQuery,
        body: StrictObject({ typing: Type.Boolean() }),
        response: { 204: Type.Null() },
      },
      config: access.authenticated,
    },
    async (request, reply) => {
      const user = await ctx.access.sessionUser(request);
      if (!(await ctx.services.use('inbox').canSeeTicket(user, request.params.ticketId))) {
        throw new AppError('ERR_NO_TICKET_FOUND');
      }
      const ticket = await ctx.db
        .knex('tickets')
        .where({ companyId: user.companyId, id: request.params.ticketId })
        .first('id', 'whatsappId', 'channel', 'contactId', 'userId', 'queueId');
      if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
      const mayWork =
        user.profile === 'admin' ||
        ticket.userId === user.id ||
        (ticket.userId === null && (ticket.queueId === null || user.queues.some((queue) => queue.id === ticket.queueId)));
      if (!mayWork) throw new AppError('ERR_NO_PERMISSION');
      if (ticket.channel === 'webchat' && ticket.whatsappId !== null) {
        const visitors = (await ctx.db
          .knex('webchatVisitors')
          .where({ companyId: user.companyId, whatsappId: ticket.whatsappId, contactId: ticket.contactId })
          .select('id')) as Array<{ id: number }>;
        if (visitors.length > 0) {
          await publishLive(ctx, {
            visitorIds: visitors.map((visitor) => visitor.id),
            whatsappId: ticket.whatsappId,
            event: 'typing',
            // the agent's display name only
            data: { typing: request.body.typing, name: user.name },
          });
        }
      }
      return reply.status(204).send(null);
    },
  );
});
