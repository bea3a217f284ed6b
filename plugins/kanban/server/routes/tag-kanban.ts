import { access, defineRoutes, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { listLanes } from '../services/board.service';
import { LaneSchema } from '../services/schemas';

/** The lanes (docs/product/administration.md#calls-and-realtime-events: `GET /tag/kanban/` answers `lista`). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/tag/kanban',
    {
      schema: {
        summary: 'List the kanban lanes',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ lista: Type.Array(LaneSchema) }) },
      },
      config: access.authenticated,
    },
    async (request) => ({ lista: await listLanes(ctx.db.knex, (request.session as { companyId: number }).companyId) }),
  );
});
