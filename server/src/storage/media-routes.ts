import path from 'node:path';
import { AppError, NoQuery, type StorageService, StrictObject, Type } from '@balcao/plugin-sdk/server';
import type { FastifyInstance } from 'fastify';
import type { MediaSigner } from './signed-media';

/** Content types by extension, for the files the inbox stores; anything else downloads as bytes. */
const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.weba': 'audio/webm',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
};

/** Types a browser may render in place; the rest (HTML, SVG, scripts …) is always a download. */
const INLINE = /^(image\/(jpeg|png|gif|webp)|audio\/|video\/|application\/pdf)/;

/**
 * `GET /media/:token`: a stored file behind a signed address (see MediaSigner). The token is the
 * credential, so the route is public; it names the company, and storage keeps companies apart.
 */
export function registerMediaRoutes(app: FastifyInstance, storage: StorageService, signer: MediaSigner): void {
  app.get(
    '/media/:token',
    {
      schema: {
        tags: ['platform'],
        summary: 'A stored file behind a signed address',
        errors: { 404: ['ERR_NOT_FOUND'] },
        params: StrictObject({
          token: Type.String({ minLength: 10, maxLength: 2048, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' }),
        }),
        querystring: NoQuery,
        response: { 200: Type.Unknown() },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const { token } = request.params as { token: string };
      const grant = signer.verify(token);
      if (!grant) throw new AppError('ERR_NOT_FOUND');
      const info = await storage.stat(grant.companyId, grant.key);
      const stream = info ? await storage.get(grant.companyId, grant.key) : null;
      if (!info || !stream) throw new AppError('ERR_NOT_FOUND');
      const type = CONTENT_TYPES[path.extname(grant.key).toLowerCase()] ?? 'application/octet-stream';
      const name = grant.fileName ?? path.basename(grant.key);
      const disposition = INLINE.test(type) ? 'inline' : 'attachment';
      return reply
        .header('content-type', type)
        .header('content-length', info.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=86400')
        .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(stream);
    },
  );
}
