import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError, type PluginContext, readLimited } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';

/**
 * The greeting's media of a connection (docs/product/administration.md#connection-editor: an image or a video).
 * The file lives in the company's storage under `greetings/<connection id>/<random>-<name>`; the connection's
 * `greetingMediaAttachment` column holds that key, the API shows the name after the random part and a
 * signed address. The behaviours read the key to send the file with the greeting.
 */

/** Largest greeting media: WhatsApp refuses videos above 16 MB, so a bigger one could never be sent. */
export const GREETING_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** Bytes `file-type` needs to recognise the formats below. */
const SAMPLE_BYTES = 4100;

/** Images and videos by content; SVG (it can carry script) is no image here. */
function acceptedType(mime: string): boolean {
  return (mime.startsWith('image/') && mime !== 'image/svg+xml') || mime.startsWith('video/');
}

/** A file name safe in a storage key and a download header (letters, digits, dot, dash, underscore). */
export function safeFileName(name: string, ext: string): string {
  const base = name
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 80);
  return `${base || 'greeting'}.${ext}`;
}

/** The name a greeting media key shows (`greetings/7/0a1b2c3d-promo.mp4` → `promo.mp4`). */
export function greetingMediaName(key: string): string {
  const last = key.slice(key.lastIndexOf('/') + 1);
  const dash = last.indexOf('-');
  return dash >= 0 ? last.slice(dash + 1) : last;
}

/**
 * Checks an upload by its content (an image or a video, whatever the browser declared: anything else 415
 * ERR_UNSUPPORTED_MEDIA_TYPE; past GREETING_MEDIA_MAX_BYTES 413) and stores it. Returns the storage key.
 */
export async function storeGreetingMedia(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  file: Readable,
  fileName: string,
): Promise<string> {
  const data = await readLimited(file, GREETING_MEDIA_MAX_BYTES);
  const detected = data.length > 0 ? await fileTypeFromBuffer(data.subarray(0, SAMPLE_BYTES)) : undefined;
  if (!detected || !acceptedType(detected.mime)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  const key = `greetings/${connectionId}/${randomBytes(4).toString('hex')}-${safeFileName(fileName, detected.ext)}`;
  await ctx.storage.put(companyId, key, data, { maxBytes: GREETING_MEDIA_MAX_BYTES });
  return key;
}
