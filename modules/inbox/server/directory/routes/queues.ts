import { access, defineRoutes, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { listQueues } from '../directory.service';
import { QueueSchema } from '../schemas';

/** GET /queue (docs/product/tickets-and-inbox.md#calls-and-realtime-events): the company's queues, for pickers and filters. */
export default defineRoutes((app, ctx) => {
  app.get(
    '/queue',
    {
      schema: {
        summary: "List the company's queues",
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Array(QueueSchema) },
      },
      config: access.authenticated,
    },
    async (request) => listQueues(ctx, request.session?.companyId as number),
  );
});
