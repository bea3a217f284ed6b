import type { FastifyRequest } from '@balcao/plugin-sdk/server';
import { access, defineRoutes, NoBody, NoQuery, type Static, Type } from '@balcao/plugin-sdk/server';
import type { ConnectionChannel, ConnectionInput, ConnectionShape, ConnectionSummary } from '../../../shared/connection';
import {
  createConnection,
  deleteConnection,
  listConnections,
  loadConnection,
  regenerateToken,
  updateConnection,
} from '../connections.service';
import {
  ConnectionListSchema,
  ConnectionParams,
  ConnectionSchema,
  CreateConnectionBody,
  errorResponses,
  FilterQuery,
  ListQuery,
  OneQuery,
  TokenSchema,
  UpdateConnectionBody,
} from '../schemas';
import { connectionCompany, creationCompany, inCompany } from '../scope';

const READ = access.permission('connections-page:actionButtons');
const ADD = access.permission('connections-page:addConnection');
const EDIT = access.permission('connections-page:editOrDeleteConnection');

/**
 * What a connection's fields are checked against on create and change (connections.service.ts,
 * validation.ts): the rules between fields, the service hours, the channel's settings (webchat's through
 * its definition, any other channel keeps none) and the queues, integration, prompt and flows named.
 */
const FIELD_ERRORS = {
  400: [
    'ERR_WAPP_GREETING_REQUIRED',
    'ERR_RATING_MESSAGE_REQUIRED',
    'ERR_EXPIRES_NPS_REQUIRED',
    'ERR_SEND_QUEUE_REQUIRED',
    'ERR_VACATION_DATES_REQUIRED',
    'ERR_VACATION_DATES_INVALID',
    'ERR_IMPORT_DATES_INVALID',
    'ERR_INVALID_SCHEDULE',
    'ERR_CHANNEL_CONFIG_INVALID',
    'ERR_WEBCHAT_CONFIG_INVALID',
  ],
  404: ['ERR_NO_QUEUE_FOUND', 'ERR_NO_INTEGRATION_FOUND', 'ERR_NO_PROMPT_FOUND', 'ERR_NO_FLOW_FOUND'],
} as const;

/**
 * Connections of the session's company (docs/product/administration.md#calls-and-realtime-events Connections; docs/product/tickets-and-inbox.md#calls-and-realtime-events): the list, one, create,
 * change, delete, and a new token. Reads for whoever may see connections (admins, super users, profile
 * users with allowConnections); writes for the holders of the add / edit-or-delete permissions.
 */
export default defineRoutes((app, ctx) => {
  const companyOf = (request: { session: { companyId: number } | null }) => request.session?.companyId as number;

  /**
   * The lists answer everyone of the company (docs/product/tickets-and-inbox.md#calls-and-realtime-events: the tickets screen lists connections for its
   * dialogs and filters): managers of connections get them whole, other users only what picks one.
   */
  const list = async (
    request: FastifyRequest,
    options: { session: boolean; channel?: ConnectionChannel },
  ): Promise<Array<ConnectionShape | ConnectionSummary>> => {
    const user = await ctx.access.sessionUser(request);
    const connections = await listConnections(ctx, companyOf(request), options);
    if (ctx.access.can(user, 'connections-page:actionButtons')) return connections;
    return connections.map(({ id, name, channel, status, isDefault }) => ({ id, name, channel, status, isDefault }));
  };

  for (const path of ['/whatsapp', '/whatsapp/']) {
    app.get(
      path,
      {
        schema: {
          summary: "List the company's connections",
          errors: {},
          querystring: ListQuery,
          response: { 200: ConnectionListSchema, ...errorResponses(403) },
        },
        config: access.authenticated,
      },
      async (request) => list(request, { session: request.query.session === 1 }),
    );
  }

  app.get(
    '/whatsapp/filter',
    {
      schema: {
        summary: 'List connections for filters (id and name)',
        errors: {},
        querystring: FilterQuery,
        response: { 200: ConnectionListSchema, ...errorResponses(403) },
      },
      config: access.authenticated,
    },
    async (request) => list(request, { session: request.query.session === 1, channel: request.query.channel }),
  );

  app.get(
    '/whatsapp/:whatsappId',
    {
      schema: {
        summary: 'Get a connection',
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        params: ConnectionParams,
        querystring: OneQuery,
        response: { 200: ConnectionSchema, ...errorResponses(403, 404) },
      },
      config: READ,
    },
    async (request) => {
      const { whatsappId: connectionId } = request.params;
      const companyId = await connectionCompany(ctx, request, connectionId);
      return inCompany(companyId, () => loadConnection(ctx, companyId, connectionId, { session: request.query.session === 1 }));
    },
  );

  app.post(
    '/whatsapp',
    {
      schema: {
        summary: 'Create a connection',
        // 403: the plan's connections are used up, its flag for the channel is off, or someone but the
        // super user names another company; 404: the company the super user names is not there
        errors: {
          ...FIELD_ERRORS,
          403: ['ERR_CONNECTION_PLAN_LIMIT', 'ERR_PLAN_FEATURE_DISABLED', 'ERR_NO_PERMISSION'],
          404: [...FIELD_ERRORS[404], 'ERR_NO_COMPANY_FOUND'],
        },
        body: CreateConnectionBody,
        response: { 201: ConnectionSchema, ...errorResponses(400, 403, 404) },
      },
      config: { ...ADD, fixtureBody: { name: 'Fixture site chat', channel: 'webchat' } },
    },
    async (request, reply) => {
      const { companyId: named, ...body } = request.body as Static<typeof CreateConnectionBody> as ConnectionInput & {
        name: string;
        channel: ConnectionChannel;
        companyId?: number;
      };
      const companyId = await creationCompany(ctx, request, named);
      return reply.status(201).send(await inCompany(companyId, () => createConnection(ctx, companyId, body)));
    },
  );

  app.put(
    '/whatsapp/:whatsappId',
    {
      schema: {
        summary: 'Update a connection',
        // the default connection stays the default until another one is made it
        errors: {
          400: [...FIELD_ERRORS[400], 'ERR_NO_OTHER_WHATSAPP'],
          404: [...FIELD_ERRORS[404], 'ERR_NO_WAPP_FOUND'],
        },
        params: ConnectionParams,
        body: UpdateConnectionBody,
        response: { 200: ConnectionSchema, ...errorResponses(400, 403, 404) },
      },
      config: { ...EDIT, fixtureBody: { name: 'Fixture renamed' } },
    },
    async (request) => {
      const { whatsappId: connectionId } = request.params;
      const companyId = await connectionCompany(ctx, request, connectionId);
      return inCompany(companyId, () => updateConnection(ctx, companyId, connectionId, request.body as ConnectionInput));
    },
  );

  app.delete(
    '/whatsapp/:whatsappId',
    {
      schema: {
        summary: 'Delete a connection',
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        params: ConnectionParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 204: Type.Null(), ...errorResponses(403, 404) },
      },
      config: EDIT,
    },
    async (request, reply) => {
      const { whatsappId: connectionId } = request.params;
      const companyId = await connectionCompany(ctx, request, connectionId);
      await inCompany(companyId, () => deleteConnection(ctx, companyId, connectionId));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/whatsapp/:whatsappId/token',
    {
      schema: {
        summary: 'Give a connection a new token',
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        params: ConnectionParams,
        body: NoBody,
        response: { 200: TokenSchema, ...errorResponses(403, 404) },
      },
      config: EDIT,
    },
    async (request) => {
      const { whatsappId: connectionId } = request.params;
      const companyId = await connectionCompany(ctx, request, connectionId);
      return inCompany(companyId, () => regenerateToken(ctx, companyId, connectionId));
    },
  );
});
