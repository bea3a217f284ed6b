import { AppError, access, defineRoutes, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { setGreetingMedia } from '../connections.service';
import { storeGreetingMedia } from '../greeting-media';
import { findConnection } from '../lookup';
import { ConnectionParams, ConnectionSchema, errorResponses } from '../schemas';
import { connectionCompany, inCompany } from '../scope';
import { invalidField } from '../validation';

const EDIT = access.permission('connections-page:editOrDeleteConnection');

/**
 * The greeting's media of a connection (docs/product/administration.md#connection-editor, #calls-and-realtime-events): upload (multipart
 * `file`, an image or a video by content) and remove. Both answer the connection.
 */
export default defineRoutes((app, ctx) => {
  app.post(
    '/whatsapp/:whatsappId/media-upload',
    {
      schema: {
        summary: "Upload a connection's greeting media",
        // 413 past the greeting's size limit, 415 for content that is neither an image nor a video
        errors: { 404: ['ERR_NO_WAPP_FOUND'], 413: ['ERR_PAYLOAD_TOO_LARGE'], 415: ['ERR_UNSUPPORTED_MEDIA_TYPE'] },
        multipart: Type.Object({ file: Type.String({ format: 'binary', description: 'The greeting media' }) }),
        params: ConnectionParams,
        // multipart with one `file`: parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: ConnectionSchema, ...errorResponses(400, 403, 404, 413, 415) },
      },
      config: EDIT,
    },
    async (request) => {
      const { whatsappId: connectionId } = request.params;
      const companyId = await connectionCompany(ctx, request, connectionId);
      await findConnection(ctx.db.knex, companyId, connectionId);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      let key: string | null = null;
      try {
        for await (const part of request.parts({ limits: { files: 1, fields: 5, fieldSize: 100 } })) {
          if (part.type !== 'file') throw invalidField(part.fieldname, 'is not allowed');
          if (part.fieldname !== 'file' || key !== null) {
            part.file.resume();
            throw invalidField(part.fieldname, 'is not allowed');
          }
          key = await storeGreetingMedia(ctx, companyId, connectionId, part.file, part.filename);
        }
      } catch (error) {
        // a refusal after the file was stored leaves no orphan behind
        if (key !== null) await ctx.storage.delete(companyId, key).catch(() => {});
        throw error;
      }
      if (key === null) throw invalidField('file', 'is required');
      const stored = key;
      return inCompany(companyId, () => setGreetingMedia(ctx, companyId, connectionId, stored));
    },
  );

  app.delete(
    '/whatsapp/:whatsappId/media-upload',
    {
      schema: {
        summary: "Remove a connection's greeting media",
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        params: ConnectionParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 200: ConnectionSchema, ...errorResponses(403, 404) },
      },
      config: EDIT,
    },
    async (request) => {
      const { whatsappId: connectionId } = request.params;
      const companyId = await connectionCompany(ctx, request, connectionId);
      return inCompany(companyId, () => setGreetingMedia(ctx, companyId, connectionId, null));
    },
  );
});
