import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, type FastifyRequest, type PluginContext, readLimited } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';

/** An image stored in a company's folder. */
export interface StoredImage {
  key: string;
  /** The name it was uploaded as (for display). */
  name: string;
  mime: string;
}

/** A name a user may see: no path, no control characters, at most 255 characters. */
function displayName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'image').slice(0, 255);
}

/**
 * Stores an uploaded image after deciding its type by content (never by its name or declared type):
 * anything outside `allowed` is refused with 415 ERR_UNSUPPORTED_MEDIA_TYPE. The key is random under
 * `folder/`, with the detected extension.
 */
export async function storeImage(
  ctx: PluginContext,
  companyId: number,
  folder: string,
  upload: { stream: Readable; fileName: string },
  allowed: ReadonlySet<string>,
  maxBytes: number,
): Promise<StoredImage> {
  const data = await readLimited(upload.stream, maxBytes);
  const detected = data.length > 0 ? await fileTypeFromBuffer(data) : undefined;
  if (!detected || !allowed.has(detected.mime)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  const key = `${folder}/${randomBytes(12).toString('hex')}.${detected.ext}`;
  await ctx.storage.put(companyId, key, data, { maxBytes });
  return { key, name: displayName(upload.fileName), mime: detected.mime };
}

/**
 * Reads a multipart upload: its text fields (only those named in `fieldNames`) and its one `file`. The
 * file is handed to `store` as it arrives, with the fields sent before it (clients send them first).
 */
export async function readUpload<T>(
  request: FastifyRequest,
  fieldNames: readonly string[],
  maxBytes: number,
  store: (fields: Record<string, string>, upload: { stream: Readable; fileName: string }) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  const fields: Record<string, string> = {};
  let stored: T | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 1000 } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || stored !== undefined) {
        part.file.resume();
        throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
      }
      stored = await store(fields, { stream: part.file, fileName: part.filename || 'image' });
    } else {
      if (!fieldNames.includes(part.fieldname)) {
        throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
      }
      fields[part.fieldname] = String(part.value);
    }
  }
  if (stored === undefined) throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
  return stored;
}
