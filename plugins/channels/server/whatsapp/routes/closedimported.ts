import { access, defineRoutes, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { findConnection } from '../../connections/lookup';
import { ConnectionParams, errorResponses } from '../../connections/schemas';
import { connectionCompany, inCompany } from '../../connections/scope';
import { closeImportedTickets } from '../imported-tickets';

/**
 * `POST /closedimported/:whatsappId` (docs/product/administration.md#calls-and-realtime-events): closes the tickets a connection's message import
 * opened that are still open, and takes the "close imported tickets" button off the list. Answers how many
 * were closed.
 */
export default defineRoutes((app, ctx) => {
  app.post(
    '/closedimported/:whatsappId',
    {
      schema: {
        summary: 'Close the tickets a message import opened',
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        params: ConnectionParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 200: Type.Object({ closed: Type.Integer() }), ...errorResponses(403, 404) },
      },
      config: access.permission('connections-page:actionButtons'),
    },
    async (request) => {
      const companyId = await connectionCompany(ctx, request, request.params.whatsappId);
      return inCompany(companyId, async () => {
        await findConnection(ctx.db.knex, companyId, request.params.whatsappId);
        return { closed: await closeImportedTickets(ctx, companyId, request.params.whatsappId) };
      });
    },
  );
});
