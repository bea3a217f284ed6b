import { AppError, access, defineRoutes, Id, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { listAllConnections, loadAnyConnection } from '../connections.service';
import { ConnectionOfCompanySchema, ConnectionParams, ConnectionSchema, errorResponses, OneQuery } from '../schemas';

/**
 * The super user's view of every company's connections (docs/product/administration.md#all-connections, #calls-and-realtime-events): the
 * whole list with each company's id and name, and any one connection. Super users only.
 */
export default defineRoutes((app, ctx) => {
  for (const path of ['/whatsapp/all', '/whatsapp/all/']) {
    app.get(
      path,
      {
        schema: {
          summary: "List every company's connections",
          errors: {},
          querystring: OneQuery,
          response: { 200: Type.Array(ConnectionOfCompanySchema), ...errorResponses(403) },
        },
        config: access.super,
      },
      async (request) => listAllConnections(ctx, { session: request.query.session === 1 }),
    );
  }

  app.get(
    '/whatsapp-admin/:whatsappId',
    {
      schema: {
        summary: "Get any company's connection",
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        params: ConnectionParams,
        querystring: OneQuery,
        response: { 200: ConnectionSchema, ...errorResponses(403, 404) },
      },
      config: access.super,
    },
    async (request) => loadAnyConnection(ctx, request.params.whatsappId, { session: request.query.session === 1 }),
  );

  // ours: the queues a company's connection may serve, for the editor the super user opens from All
  // connections on another company (GET /queue answers the session's company only)
  app.get(
    '/whatsapp-admin/companies/:companyId/queues',
    {
      schema: {
        summary: "List any company's queues (for its connections)",
        errors: { 404: ['ERR_NO_COMPANY_FOUND'] },
        params: StrictObject({ companyId: Id }),
        querystring: NoQuery,
        response: {
          200: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() })),
          ...errorResponses(403, 404),
        },
      },
      config: access.super,
    },
    async (request) => {
      const { companyId } = request.params;
      const company = await ctx.db.knex('companies').where({ id: companyId }).first('id');
      if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
      return ctx.db
        .knex('queues')
        .where({ companyId })
        .orderByRaw('order_queue ASC NULLS LAST, name ASC, id ASC')
        .select('id', 'name', 'color');
    },
  );
});
