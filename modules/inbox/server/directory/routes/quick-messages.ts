import {
  AppError,
  access,
  defineRoutes,
  IdParams,
  NoBody,
  NoQuery,
  PageNumber,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import { callerOf } from '../caller';
import * as quick from '../quick-message.service';
import { Empty, errorResponses, QuickMessageSchema, SearchParam } from '../schemas';

const QuickMessageBody = StrictObject({
  shortcode: Type.String({ minLength: 1, maxLength: 100 }),
  message: Type.String({ maxLength: 20_000 }),
  geral: Type.Optional(Type.Boolean()),
  visao: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Boolean()),
  // the documented client sends these too; the attachment is only ever set by media-upload
  isMedia: Type.Optional(Type.Boolean()),
  mediaPath: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
});

/** Quick replies (docs/product/automation.md#calls-and-realtime-events Quick replies; docs/inbox-api.md). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/quick-messages',
    {
      schema: {
        summary: 'List quick replies (search, paged)',
        errors: {},
        querystring: StrictObject({ searchParam: Type.Optional(SearchParam), pageNumber: Type.Optional(PageNumber) }),
        response: { 200: Type.Object({ records: Type.Array(QuickMessageSchema), hasMore: Type.Boolean() }) },
      },
      config: access.authenticated,
    },
    async (request) => quick.listQuickMessages(ctx, await callerOf(ctx, request), request.query),
  );

  app.get(
    '/quick-messages/list',
    {
      schema: {
        summary: 'List every quick reply the user may use',
        errors: {},
        querystring: StrictObject({ searchParam: Type.Optional(SearchParam) }),
        response: { 200: Type.Array(QuickMessageSchema) },
      },
      config: access.authenticated,
    },
    async (request) => quick.composerQuickMessages(ctx, await callerOf(ctx, request), request.query.searchParam),
  );

  app.get(
    '/quick-messages/:id',
    {
      schema: {
        summary: 'Get a quick reply',
        errors: { 404: ['ERR_NO_QUICK_MESSAGE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: QuickMessageSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'quickMessage' } },
    },
    async (request) => quick.getQuickMessage(ctx, await callerOf(ctx, request), request.params.id),
  );

  app.post(
    '/quick-messages',
    {
      schema: {
        summary: 'Create a quick reply',
        errors: {},
        body: QuickMessageBody,
        response: { 200: QuickMessageSchema, ...errorResponses(400) },
      },
      config: access.authenticated,
    },
    async (request) => quick.createQuickMessage(ctx, await callerOf(ctx, request), request.body),
  );

  app.put(
    '/quick-messages/:id',
    {
      schema: {
        summary: 'Update a quick reply',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_QUICK_MESSAGE_FOUND'] },
        params: IdParams,
        body: QuickMessageBody,
        response: { 200: QuickMessageSchema, ...errorResponses(400, 403, 404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'quickMessage' } },
    },
    async (request) => quick.updateQuickMessage(ctx, await callerOf(ctx, request), request.params.id, request.body),
  );

  app.delete(
    '/quick-messages/:id',
    {
      schema: {
        summary: 'Delete a quick reply',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_QUICK_MESSAGE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(403, 404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'quickMessage' } },
    },
    async (request, reply) => {
      await quick.deleteQuickMessage(ctx, await callerOf(ctx, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/quick-messages/:id/media-upload',
    {
      schema: {
        summary: 'Attach a file to a quick reply',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_QUICK_MESSAGE_FOUND'] },
        multipart: Type.Object({
          file: Type.String({ format: 'binary', description: 'The file (image, audio, video or document)' }),
        }),
        params: IdParams,
        // multipart (`typeArch`, `file`): parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: QuickMessageSchema, ...errorResponses(400, 403, 404, 413, 415) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'quickMessage' } },
    },
    async (request) => {
      const caller = await callerOf(ctx, request);
      const current = await quick.requireManageable(caller, request.params.id);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      for await (const part of request.parts({ limits: { fileSize: quick.QUICK_MESSAGE_MAX_BYTES + 1, files: 1 } })) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        const saved = await quick.attachMedia(ctx, caller, current, { fileName: part.filename || 'file', stream: part.file });
        if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
        return saved;
      }
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
    },
  );

  app.delete(
    '/quick-messages/:id/media-upload',
    {
      schema: {
        summary: "Remove a quick reply's file",
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_QUICK_MESSAGE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: QuickMessageSchema, ...errorResponses(403, 404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'quickMessage' } },
    },
    async (request) => quick.detachMedia(ctx, await callerOf(ctx, request), request.params.id),
  );
});
