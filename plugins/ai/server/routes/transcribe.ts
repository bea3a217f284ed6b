import { AppError, access, defineRoutes, NoQuery, Type } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { failureReason, transcribe } from '../services/provider';
import { errorResponses, FileNameParams } from '../services/schemas';
import { secretsKey, unseal } from '../services/secrets';

/** Largest audio sent for transcription (the Whisper endpoint's own limit is 25 MB). */
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_AUDIO_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The storage key a file name stands for. The ticket view names an audio by the last part of its media
 * address, whose first half is the address's payload (base64url JSON with the key as `k`); any other name is
 * the stored file's own name. Nothing here is trusted: the key found must still be an audio message of the
 * caller's company on a ticket the caller may see.
 */
function keyOfMediaToken(fileName: string): string | null {
  const payload = fileName.slice(0, fileName.indexOf('.'));
  try {
    const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown };
    return typeof data?.k === 'string' ? data.k : null;
  } catch {
    return null;
  }
}

/**
 * `GET /messages/transcribeAudio/:fileName` (docs/ai.md "Transcription"): the text of an audio message. The
 * file name is the last part of the message's media address, or the stored file's name; the caller must be able to
 * see the message's ticket, else it is absent. The provider is the prompt of the ticket's queue, else the
 * company's first prompt.
 */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as AiContext;
  app.get(
    '/messages/transcribeAudio/:fileName',
    {
      schema: {
        summary: 'Transcribe an audio message',
        errors: { 404: ['ERR_NO_AUDIO_FOUND'], 409: ['ERR_AI_NOT_CONFIGURED'], 424: ['ERR_TRANSCRIPTION_FAILED'] },
        params: FileNameParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ transcribedText: Type.String() }), ...errorResponses(404, 409, 502) },
      },
      config: { ...access.authenticated, fixtureParams: { fileName: 'audioFile' } },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      const companyId = user.companyId;
      const fileName = request.params.fileName;
      const escaped = fileName.replace(/[\\%_]/g, (char) => `\\${char}`);
      const tokenKey = keyOfMediaToken(fileName);
      const message = await ctx.db
        .knex('messages')
        .where({ companyId, mediaType: 'audio' })
        .where((query) =>
          tokenKey === null
            ? query.where('mediaPath', fileName).orWhere('mediaPath', 'like', `%/${escaped}`)
            : query.where('mediaPath', tokenKey),
        )
        .orderBy('id', 'desc')
        .first('id', 'ticketId', 'mediaPath', 'mediaName');
      const inbox = ctx.services.use('inbox');
      if (!message || !(await inbox.canSeeTicket(user, message.ticketId))) throw new AppError('ERR_NO_AUDIO_FOUND');
      const ticket = await ctx.db.knex('tickets').where({ id: message.ticketId, companyId }).first('queueId');
      const prompt =
        (ticket?.queueId ? await Prompt.query().where({ queueId: ticket.queueId }).first() : undefined) ??
        (await Prompt.query().orderBy('id').first());
      if (!prompt) throw new AppError('ERR_AI_NOT_CONFIGURED');
      const apiKey = unseal(secretsKey(ctx), prompt.apiKeySealed);
      if (!apiKey) throw new AppError('ERR_AI_NOT_CONFIGURED');
      const stream = await ctx.storage.get(companyId, message.mediaPath);
      if (!stream) throw new AppError('ERR_NO_AUDIO_FOUND');
      const bytes = await readAll(stream);
      try {
        const text = await transcribe(
          ctx,
          { baseUrl: prompt.baseUrl, apiKey },
          { bytes, fileName: message.mediaName ?? fileName },
        );
        return { transcribedText: text };
      } catch (error) {
        request.log.warn({ messageId: message.id, promptId: prompt.id, reason: failureReason(error) }, 'transcription failed');
        throw new AppError('ERR_TRANSCRIPTION_FAILED');
      }
    },
  );
});
