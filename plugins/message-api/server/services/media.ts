import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import type { MessageApiContext } from '../config';

/** The largest file the API takes (the inbox's own limit for an agent's file). */
export const MAX_API_MEDIA_BYTES = 20 * 1024 * 1024;
/** Files one multipart send may carry. */
export const MAX_API_MEDIA_FILES = 10;

/** A file of a multipart send, stored in the company's storage. */
export interface StoredApiMedia {
  storageKey: string;
  fileName: string;
  mimetype: string;
  mediaType: 'image' | 'audio' | 'video' | 'application';
  size: number;
}

/** Office documents, archives, PDF and plain text besides images, audio and video (the inbox's allow-list). */
const ALLOWED_APPLICATION = new Set([
  'application/pdf',
  'application/zip',
  'application/x-cfb',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
  'text/csv',
  'text/plain',
]);

function isAllowed(mime: string): boolean {
  if (/^(image|audio|video)\//.test(mime)) return mime !== 'image/svg+xml';
  return (
    ALLOWED_APPLICATION.has(mime) ||
    mime.startsWith('application/vnd.openxmlformats-officedocument.') ||
    mime.startsWith('application/vnd.oasis.opendocument.')
  );
}

function mediaTypeOf(mime: string): StoredApiMedia['mediaType'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'application';
}

/** A file name safe to show and store: no folders, no control characters, at most 120 characters. */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(-120);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads one uploaded file, decides its type by its content (plain text and CSV, which have no signature,
 * by their declared type and the absence of NUL bytes) and stores it under `message-api/`. A type outside
 * the allow-list answers 415 ERR_UNSUPPORTED_MEDIA_TYPE, whatever the file's name says.
 */
export async function storeApiMedia(
  ctx: MessageApiContext,
  companyId: number,
  file: Readable & { truncated?: boolean },
  fileName: string,
  declaredMime: string,
): Promise<StoredApiMedia> {
  const data = await readAll(file);
  if (file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
  const detected = data.length > 0 ? await fileTypeFromBuffer(data) : undefined;
  let mime: string;
  let ext: string;
  if (detected) {
    mime = detected.mime;
    ext = detected.ext;
  } else {
    const declared = declaredMime.split(';')[0]?.trim().toLowerCase() ?? '';
    const isCsv = declared === 'text/csv' || /\.csv$/i.test(fileName);
    if (data.length === 0 || !(isCsv || declared === 'text/plain') || data.includes(0)) {
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    mime = isCsv ? 'text/csv' : 'text/plain';
    ext = isCsv ? 'csv' : 'txt';
  }
  if (!isAllowed(mime)) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  const name = displayName(fileName);
  const stored = await ctx.storage.put(companyId, `message-api/${randomUUID()}.${ext}`, data, { maxBytes: MAX_API_MEDIA_BYTES });
  return { storageKey: stored.key, fileName: name, mimetype: mime, mediaType: mediaTypeOf(mime), size: stored.size };
}
