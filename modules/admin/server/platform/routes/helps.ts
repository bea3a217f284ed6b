import { access, defineRoutes, Id, NoQuery, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { Empty, errorResponses, HelpBody, HelpSchema, Paged, SearchParam } from '../schemas';
import * as helps from '../services/helps.service';

const HelpParams = StrictObject({ helpId: Id });

/**
 * Help videos (docs/product/administration.md#calls-and-realtime-events Helps, docs/product/automation.md#screens-and-routes /helps): everyone reads them (the gallery and
 * the menu entry), only the super user writes them. Help entries are the platform's, shared by every
 * company.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/helps',
    {
      schema: {
        summary: 'List help entries (search, paged)',
        errors: {},
        querystring: StrictObject({ searchParam: Type.Optional(SearchParam), pageNumber: Type.Optional(PageNumber) }),
        response: { 200: Paged(HelpSchema) },
      },
      config: access.authenticated,
    },
    async (request) => helps.pageHelps(ctx, request.query),
  );

  app.get(
    '/helps/list',
    {
      schema: { summary: 'List every help entry', errors: {}, querystring: NoQuery, response: { 200: Type.Array(HelpSchema) } },
      config: access.authenticated,
    },
    async () => helps.listHelps(ctx),
  );

  app.get(
    '/helps/:helpId',
    {
      schema: {
        summary: 'Get a help entry',
        errors: { 404: ['ERR_NO_HELP_FOUND'] },
        params: HelpParams,
        querystring: NoQuery,
        response: { 200: HelpSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { helpId: 'shared:help' } },
    },
    async (request) => helps.getHelp(ctx, request.params.helpId),
  );

  app.post(
    '/helps',
    {
      schema: {
        summary: 'Create a help entry',
        errors: {},
        body: HelpBody,
        response: { 201: HelpSchema, ...errorResponses(400) },
      },
      config: access.super,
    },
    async (request, reply) => reply.status(201).send(await helps.createHelp(ctx, request.body)),
  );

  app.put(
    '/helps/:helpId',
    {
      schema: {
        summary: 'Update a help entry',
        errors: { 404: ['ERR_NO_HELP_FOUND'] },
        params: HelpParams,
        body: HelpBody,
        response: { 200: HelpSchema, ...errorResponses(400, 404) },
      },
      config: access.super,
    },
    async (request) => helps.updateHelp(ctx, request.params.helpId, request.body),
  );

  app.delete(
    '/helps/:helpId',
    {
      schema: {
        summary: 'Delete a help entry',
        errors: { 404: ['ERR_NO_HELP_FOUND'] },
        params: HelpParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: access.super,
    },
    async (request, reply) => {
      await helps.deleteHelp(ctx, request.params.helpId);
      return reply.status(204).send(null);
    },
  );
});
