import { access, defineRoutes, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { FlowBuilder } from '../models';

const FLOWS_PAGE_SIZE = 40;

/**
 * The flows' list (docs/product/automation.md#calls-and-realtime-events "Flows", `GET /flowbuilder`), read by
 * the phrase campaigns' dialog and the connection editor; the flow editor's calls come with it.
 */
export default defineRoutes((app) => {
  app.get(
    '/flowbuilder',
    {
      schema: {
        summary: 'List flows (search, paged)',
        errors: {},
        querystring: StrictObject({
          searchParam: Type.Optional(Type.String({ maxLength: 200 })),
          pageNumber: Type.Optional(PageNumber),
        }),
        response: {
          200: Type.Object({
            flows: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), active: Type.Boolean() })),
            hasMore: Type.Boolean(),
          }),
        },
      },
      config: { ...access.admin },
    },
    async (request) => {
      const page = request.query.pageNumber ?? 1;
      const query = FlowBuilder.query().orderBy('name').orderBy('id');
      const search = request.query.searchParam?.trim();
      if (search) query.whereRaw("name ILIKE ? ESCAPE '\\'", [`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
      const rows = await query
        .limit(FLOWS_PAGE_SIZE + 1)
        .offset((page - 1) * FLOWS_PAGE_SIZE)
        .select('id', 'name', 'active');
      return {
        flows: rows.slice(0, FLOWS_PAGE_SIZE).map(({ id, name, active }) => ({ id, name, active })),
        hasMore: rows.length > FLOWS_PAGE_SIZE,
      };
    },
  );
});
