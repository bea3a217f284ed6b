import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, type PluginContext, readLimited } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';

/** Largest avatar accepted. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** Image types an avatar may be, decided by content (SVG is refused: it can carry script). */
const AVATAR_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Checks an uploaded avatar by its content (JPEG, PNG, GIF or WebP, at most 5 MB; anything else 415
 * ERR_UNSUPPORTED_MEDIA_TYPE whatever the browser declared) and stores it under the company's
 * `avatars/<userId>/` folder. Returns the storage key.
 */
export async function storeAvatar(ctx: PluginContext, companyId: number, userId: number, file: Readable): Promise<string> {
  const data = await readLimited(file, AVATAR_MAX_BYTES);
  const detected = data.length > 0 ? await fileTypeFromBuffer(data) : undefined;
  const ext = detected ? AVATAR_TYPES[detected.mime] : undefined;
  if (!ext) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  const key = `avatars/${userId}/${randomBytes(8).toString('hex')}.${ext}`;
  await ctx.storage.put(companyId, key, data, { maxBytes: AVATAR_MAX_BYTES });
  return key;
}
