import { defineRoutes, NoQuery, Type } from '@balcao/plugin-sdk/server';
import type { MessageApiContext } from '../config';
import { sendsToday, utcDay } from '../services/send.service';

/** `GET /messages-api/usage`: the company's sends through the API today (UTC), for the `/messages-api` page. */
export default defineRoutes((app, pluginCtx) => {
  const ctx = pluginCtx as MessageApiContext;
  app.get(
    '/messages-api/usage',
    {
      schema: {
        summary: "Today's sends through the message API (UTC day)",
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ day: Type.String({ format: 'date' }), count: Type.Integer() }) },
      },
      config: { access: 'admin' },
    },
    async (request) => {
      const companyId = (request.session as { companyId: number }).companyId;
      return { day: utcDay(), count: await sendsToday(ctx, companyId) };
    },
  );
});
