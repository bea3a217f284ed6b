import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError, type FastifyRequest, type InboundMedia, isStorableText, type PluginContext } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import type { MediaType } from '../../shared/types';

/** Files one message send may carry (`medias`). */
export const MAX_MEDIA_FILES = 10;
/** Size limit of one sent file. */
export const MAX_MEDIA_BYTES = 64 * 1024 * 1024;
/** Size limit of one inbound file (channels carry documents bigger than the composer's). */
export const MAX_INBOUND_MEDIA_BYTES = 100 * 1024 * 1024;
/** Bytes read to decide a file's type by its content. */
const SAMPLE_BYTES = 4100;

/** A file in the company's storage, as a message refers to it. */
export interface StoredMedia {
  /** The storage key (`media/<folder>/<random>-<safe name>`). */
  key: string;
  /** The name the user sees and downloads it as. */
  name: string;
  mimetype: string;
  mediaType: MediaType;
  size: number;
}

/** Office documents, archives, PDF and plain text besides images, audio and video. */
const ALLOWED_APPLICATION = new Set([
  'application/pdf',
  'application/zip',
  'application/x-cfb', // .doc, .xls, .ppt (compound file)
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
  'text/csv',
  'text/plain',
]);

/** Whether a content type found by content may be sent. SVG (scriptable) and the rest are refused. */
export function isAllowedMediaType(mime: string): boolean {
  if (/^(image|audio|video)\//.test(mime)) return mime !== 'image/svg+xml';
  return (
    ALLOWED_APPLICATION.has(mime) ||
    mime.startsWith('application/vnd.openxmlformats-officedocument.') ||
    mime.startsWith('application/vnd.oasis.opendocument.')
  );
}

/** The message media type of a content type (docs/product/tickets-and-inbox.md#entities): image, audio, video or application. */
export function mediaTypeOf(mime: string): MediaType {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'application';
}

/** Extensions of the content types an inbound file may declare, for its storage key. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/wav': 'wav',
  'audio/webm': 'weba',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
};

/** A file name reduced to safe characters for a storage key, with `ext` as its extension. */
export function safeFileName(name: string, ext: string | null): string {
  const base = name.replace(/\.[^.]*$/, '');
  const safeBase =
    base
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._-]+/, '')
      .slice(0, 80) || 'file';
  const ownExt = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? null;
  const finalExt = (ext ?? ownExt ?? 'bin').replace(/[^A-Za-z0-9]/g, '').slice(0, 10) || 'bin';
  return `${safeBase}.${finalExt}`;
}

/** A storage key under the company's media folder: `media/<folder>/<random>-<safe name>`. */
export function mediaKey(folder: string, name: string, ext: string | null): string {
  return `media/${folder}/${randomBytes(8).toString('hex')}-${safeFileName(name, ext)}`;
}

/** The longest name a file is kept under: its signed download link must stay within the URL limits. */
export const MAX_DISPLAY_NAME = 100;

/**
 * A name a user may see: no path, no control characters, at most MAX_DISPLAY_NAME characters with its
 * extension kept (a 210-character name made a download link past the router's parameter limit).
 */
export function displayName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'file';
  const chars = Array.from(clean);
  if (chars.length <= MAX_DISPLAY_NAME) return clean;
  const ext = /\.[A-Za-z0-9]{1,10}$/.exec(clean)?.[0] ?? '';
  return `${chars
    .slice(0, MAX_DISPLAY_NAME - ext.length)
    .join('')
    .trimEnd()}${ext}`;
}

/** Reads the first `size` bytes of a stream and returns them with a stream of the whole content. */
async function peek(stream: Readable, size: number): Promise<{ head: Buffer; whole: Readable }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < size) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest(): AsyncGenerator<Buffer> {
    yield head;
    if (done) return;
    while (true) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head, whole: Readable.from(rest(), { objectMode: false }) };
}

/** Whether a sample looks like text (no NUL byte): the only check plain text and CSV can get. */
function looksLikeText(sample: Buffer): boolean {
  return !sample.includes(0);
}

/**
 * Decides a sent file's type by its content (the `file-type` package; plain text and CSV, which have no
 * signature, by their declared type and a text-looking sample), refuses what the allow-list doesn't name
 * with 415 ERR_UNSUPPORTED_MEDIA_TYPE, and streams it to the company's storage under
 * `media/<folder>/` with at most `MAX_MEDIA_BYTES` (413 ERR_PAYLOAD_TOO_LARGE past it).
 */
export async function storeCheckedFile(
  ctx: PluginContext,
  companyId: number,
  folder: string,
  file: Readable,
  fileName: string,
  declaredMime: string,
): Promise<StoredMedia> {
  const { head, whole } = await peek(file, SAMPLE_BYTES);
  const detected = head.length > 0 ? await fileTypeFromBuffer(head) : undefined;
  const declared = declaredMime.split(';')[0]?.trim().toLowerCase() ?? '';
  let mime: string;
  let ext: string;
  let mediaType: MediaType;
  if (detected) {
    mime = detected.mime;
    ext = detected.ext;
    mediaType = mediaTypeOf(mime);
    // a browser's audio recording in a video container (webm, mp4, ogg) is still a voice message
    if (mediaType === 'video' && declared.startsWith('audio/')) mediaType = 'audio';
  } else {
    const isCsv = declared === 'text/csv' || /\.csv$/i.test(fileName);
    const isText = isCsv || declared === 'text/plain';
    if (!isText || !looksLikeText(head)) {
      file.resume();
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    mime = isCsv ? 'text/csv' : 'text/plain';
    ext = isCsv ? 'csv' : 'txt';
    mediaType = 'application';
  }
  if (!isAllowedMediaType(mime)) {
    file.resume();
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  }
  const name = displayName(fileName);
  const key = mediaKey(folder, name, ext);
  const stored = await ctx.storage.put(companyId, key, whole, { maxBytes: MAX_MEDIA_BYTES });
  return { key: stored.key, name, mimetype: mime, mediaType, size: stored.size };
}

/**
 * Stores a file that came with an inbound message (the channel vouches for its type; it is served as a
 * download unless the core knows it as inline-safe). Null when it can't be stored (too big, unreadable):
 * the message is kept without its file.
 */
export async function storeInboundMedia(
  ctx: PluginContext,
  companyId: number,
  folder: string,
  media: InboundMedia,
): Promise<StoredMedia | null> {
  const mime = media.mimetype.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
  const name = displayName(media.fileName ?? `file.${EXTENSIONS[mime] ?? 'bin'}`);
  const ownExt = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? null;
  const key = mediaKey(folder, name, ownExt ?? EXTENSIONS[mime] ?? 'bin');
  try {
    const stored = await ctx.storage.put(companyId, key, media.data, { maxBytes: MAX_INBOUND_MEDIA_BYTES });
    return { key: stored.key, name, mimetype: mime, mediaType: mediaTypeOf(mime), size: stored.size };
  } catch (error) {
    ctx.log.warn({ err: error, companyId }, 'inbound media could not be stored');
    if (media.data instanceof Readable) media.data.resume();
    return null;
  }
}

/** The text fields of a multipart send (every value as sent). */
export type MultipartFields = Record<string, string>;

/** Multipart fields a send reads; `fromMe` and `read` are sent by the documented client and ignored. */
const SEND_FIELDS = new Set(['body', 'isPrivate', 'signMessage', 'quotedMsg', 'fromMe', 'read']);

/**
 * Reads a multipart `POST /messages/:ticketId`: its text fields, and each `medias` file checked and
 * stored under `media/<ticketId>/` as it streams in (at most `MAX_MEDIA_FILES`, each `MAX_MEDIA_BYTES`).
 * On any refusal the files already stored are removed.
 */
export async function readMultipartSend(
  request: FastifyRequest,
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
): Promise<{ fields: MultipartFields; files: StoredMedia[] }> {
  const fields: MultipartFields = {};
  const files: StoredMedia[] = [];
  try {
    const parts = request.parts({
      limits: { files: MAX_MEDIA_FILES, fileSize: MAX_MEDIA_BYTES, fields: 20, fieldSize: 70_000, parts: 40 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'medias') {
          part.file.resume();
          throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
        }
        files.push(await storeCheckedFile(ctx, companyId, String(ticketId), part.file, part.filename, part.mimetype));
        if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
      } else {
        if (!SEND_FIELDS.has(part.fieldname)) {
          throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
        }
        const value = String(part.value);
        // multipart fields skip the schema: text no column can hold is refused here as it is there
        if (!isStorableText(value)) {
          throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'must be valid text' }] });
        }
        fields[part.fieldname] = value;
      }
    }
  } catch (error) {
    await Promise.all(files.map((file) => ctx.storage.delete(companyId, file.key).catch(() => {})));
    throw error;
  }
  return { fields, files };
}
