import { AppError, type FastifyRequest, type PluginContext } from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';

/** The largest file a visitor may send: the company's download limit, and never above 16 MB. */
export const WEBCHAT_MAX_FILE_BYTES = 16 * 1024 * 1024;
/**
 * What the widget's file input accepts (`<input accept>`: exact types or `type/*`); the server checks the
 * content itself (`checkedType`), this list only steers the browser's file picker.
 */
export const ACCEPTED_TYPES = [
  'image/*',
  'video/mp4',
  'audio/*',
  'application/pdf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/rtf',
  'text/plain',
  'text/csv',
];

const OFFICE = new Set([
  'application/x-cfb',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/rtf',
]);

/** Whether a type found by content may come from a visitor (SVG, scriptable, never). */
export function isAcceptedType(mime: string): boolean {
  if (mime.startsWith('image/')) return mime !== 'image/svg+xml';
  if (mime.startsWith('audio/')) return true;
  if (mime === 'video/mp4' || mime === 'application/pdf' || OFFICE.has(mime)) return true;
  return (
    mime.startsWith('application/vnd.openxmlformats-officedocument.') || mime.startsWith('application/vnd.oasis.opendocument.')
  );
}

export async function maxFileBytes(ctx: PluginContext, companyId: number): Promise<number> {
  const setting = Number(await ctx.settings.get(companyId, 'downloadLimit'));
  const companyLimit = Number.isFinite(setting) && setting > 0 ? setting * 1024 * 1024 : WEBCHAT_MAX_FILE_BYTES;
  return Math.min(companyLimit, WEBCHAT_MAX_FILE_BYTES);
}

/** Plain text: no NUL byte and valid UTF-8 in its first bytes. */
function looksLikeText(sample: Buffer): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, Math.min(sample.length, 4_000)));
    return true;
  } catch (error) {
    // a multi-byte character cut at the sample's end is still text
    return error instanceof TypeError && sample.length > 4_000;
  }
}

/** The type of a visitor's file, decided by its content; 415 ERR_WEBCHAT_TYPE_REFUSED when not accepted. */
export async function checkedType(
  data: Buffer,
  fileName: string,
  declared: string,
): Promise<{ mime: string; mediaType: string }> {
  const detected = data.length > 0 ? await fileTypeFromBuffer(data.subarray(0, 4_100)) : undefined;
  let mime: string;
  if (detected) {
    mime = detected.mime;
    // a browser's voice recording (MediaRecorder: audio/webm, audio/ogg) sits in a container file-type names video
    if (mime.startsWith('video/') && declared.startsWith('audio/') && /^(video\/webm|video\/ogg|video\/mp4)$/.test(mime)) {
      mime = `audio/${mime.slice('video/'.length)}`;
    }
  } else {
    const isCsv = declared === 'text/csv' || /\.csv$/i.test(fileName);
    if (!(isCsv || declared === 'text/plain' || /\.txt$/i.test(fileName)) || data.length === 0 || !looksLikeText(data)) {
      throw new AppError('ERR_WEBCHAT_TYPE_REFUSED');
    }
    mime = isCsv ? 'text/csv' : 'text/plain';
  }
  if (!(isAcceptedType(mime) || mime === 'text/plain' || mime === 'text/csv')) throw new AppError('ERR_WEBCHAT_TYPE_REFUSED');
  const mediaType = mime.startsWith('image/')
    ? 'image'
    : mime.startsWith('audio/')
      ? 'audio'
      : mime.startsWith('video/')
        ? 'video'
        : 'application';
  return { mime, mediaType };
}

/** A multipart `POST messages`: its `clientId` and `body` fields and its one `file`, read up to `maxBytes`. */
export async function readMultipartMessage(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{
  clientId: string | undefined;
  body: string | undefined;
  file: { data: Buffer; fileName: string; declared: string } | null;
}> {
  const fields: Record<string, string> = {};
  let file: { data: Buffer; fileName: string; declared: string } | null = null;
  const parts = request.parts({ limits: { files: 1, fileSize: maxBytes, fields: 4, fieldSize: 20_000, parts: 6 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) throw new AppError('ERR_WEBCHAT_TOO_LARGE', { maxFileSize: maxBytes });
      file = {
        data: Buffer.concat(chunks),
        fileName: (part.filename || 'file').slice(0, 200),
        declared: part.mimetype.split(';')[0]?.trim().toLowerCase() ?? '',
      };
    } else {
      if (part.fieldname !== 'clientId' && part.fieldname !== 'body') {
        throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
      }
      fields[part.fieldname] = String(part.value);
    }
  }
  return { clientId: fields.clientId, body: fields.body, file };
}
