import { AppError, defineRoutes, Id, IdParams, NoBody, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import * as lists from '../services/contact-lists.service';
import { exampleSheet, IMPORT_MAX_BYTES, latestImport, startImport } from '../services/imports.service';
import { ContactListBody, ContactListSchema, Empty, errorResponses, ImportSchema, SearchQuery } from '../services/schemas';
import { MANAGE } from './campaigns';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Contact lists (docs/product/automation.md#calls-and-realtime-events "Contact lists"). */
export default defineRoutes((app, ctx) => {
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/contact-lists',
    {
      schema: {
        summary: 'List contact lists (search, paged)',
        errors: {},
        querystring: SearchQuery,
        response: {
          200: Type.Object({ records: Type.Array(ContactListSchema), count: Type.Integer(), hasMore: Type.Boolean() }),
        },
      },
      config: { ...MANAGE },
    },
    async (request) => lists.pageLists(ctx, companyOf(request), request.query),
  );

  app.get(
    '/contact-lists/list',
    {
      // the documented client sends companyId; the company is always the session's
      schema: {
        summary: 'List every contact list for pickers',
        errors: {},
        querystring: StrictObject({ companyId: Type.Optional(Id) }),
        response: { 200: Type.Array(ContactListSchema) },
      },
      config: { ...MANAGE },
    },
    async (request) => lists.allLists(ctx, companyOf(request)),
  );

  app.get(
    '/contact-lists/example-sheet',
    {
      schema: {
        summary: 'Download the example import spreadsheet',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Unknown() },
      },
      config: { ...MANAGE },
    },
    async (_request, reply) =>
      reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', 'attachment; filename="planilha-exemplo.xlsx"')
        .send(await exampleSheet()),
  );

  app.get(
    '/contact-lists/:id',
    {
      schema: {
        summary: 'Get a contact list',
        errors: { 404: ['ERR_NO_CONTACT_LIST_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ContactListSchema, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactList' } },
    },
    async (request) => lists.loadList(ctx, companyOf(request), request.params.id),
  );

  app.post(
    '/contact-lists',
    {
      schema: {
        summary: 'Create a contact list',
        errors: { 404: ['ERR_NO_WHATSAPP_FOUND'] },
        body: ContactListBody,
        response: { 200: ContactListSchema, ...errorResponses(400, 404) },
      },
      config: { ...MANAGE },
    },
    async (request) => lists.createList(ctx, companyOf(request), request.body),
  );

  app.put(
    '/contact-lists/:id',
    {
      schema: {
        summary: 'Rename a contact list',
        errors: { 404: ['ERR_NO_CONTACT_LIST_FOUND', 'ERR_NO_WHATSAPP_FOUND'] },
        params: IdParams,
        body: ContactListBody,
        response: { 200: ContactListSchema, ...errorResponses(400, 404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactList' } },
    },
    async (request) => lists.updateList(ctx, companyOf(request), request.params.id, request.body),
  );

  app.delete(
    '/contact-lists/:id',
    {
      schema: {
        summary: 'Delete a contact list and its contacts',
        errors: { 404: ['ERR_NO_CONTACT_LIST_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactList' } },
    },
    async (request, reply) => {
      await lists.deleteList(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/contact-lists/:id/upload',
    {
      schema: {
        summary: 'Import a spreadsheet into a contact list',
        errors: {
          400: ['ERR_IMPORT_UNREADABLE'],
          404: ['ERR_NO_CONTACT_LIST_FOUND'],
          409: ['ERR_IMPORT_RUNNING'],
          415: ['ERR_IMPORT_FILE_TYPE'],
        },
        multipart: Type.Object({ file: Type.String({ format: 'binary', description: 'An .xlsx, .xls or .csv spreadsheet' }) }),
        params: IdParams,
        // multipart (`file`: .xlsx, .xls or .csv): parsed below; a JSON body is refused
        body: NoBody,
        response: { 202: ImportSchema, ...errorResponses(400, 404, 409, 413, 415) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactList' } },
    },
    async (request, reply) => {
      // the list first: another company's id is a 404 whatever was sent
      await lists.loadList(ctx, companyOf(request), request.params.id);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      for await (const part of request.parts({ limits: { fileSize: IMPORT_MAX_BYTES + 1, files: 1 } })) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        const started = await startImport(ctx, companyOf(request), request.params.id, {
          fileName: part.filename || 'file',
          stream: part.file,
          truncated: () => part.file.truncated,
        });
        return reply.status(202).send(started);
      }
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
    },
  );

  app.get(
    '/contact-lists/:id/import',
    {
      schema: {
        summary: "Get the progress of a list's import",
        errors: { 404: ['ERR_NO_CONTACT_LIST_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Union([ImportSchema, Type.Null()]), ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactList' } },
    },
    async (request) => latestImport(request.params.id),
  );

  app.post(
    '/contact-lists/:id/check-numbers',
    {
      schema: {
        summary: "Check the list's numbers on WhatsApp",
        errors: { 404: ['ERR_NO_CONTACT_LIST_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 202: Empty, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactList' } },
    },
    async (request, reply) => {
      await lists.loadList(ctx, companyOf(request), request.params.id);
      await lists.requestNumberCheck(ctx, companyOf(request), request.params.id);
      return reply.status(202).send(null);
    },
  );
});
