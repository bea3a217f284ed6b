/**
 * Which WhatsApp message a stored file goes as, and with which mimetype. WhatsApp only shows a few formats
 * inline (its apps refuse the others, or show a broken bubble): anything else goes as a document, which
 * always arrives and opens in the contact's own app.
 */

/** How a file is sent. */
export type OutboundMediaKind = 'image' | 'video' | 'audio' | 'document';

/** Pictures WhatsApp shows as images (GIF, HEIC, BMP, TIFF don't: documents). */
const INLINE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/webp']);
/** Videos WhatsApp plays (H.264 in MP4 / 3GP). */
const INLINE_VIDEOS = new Set(['video/mp4', 'video/3gpp']);
/** Audio WhatsApp plays as a voice note (not WAV, not WebM). */
const INLINE_AUDIO = new Set(['audio/ogg; codecs=opus', 'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/amr']);

/** Voice-note and container spellings → the one WhatsApp's apps read. */
const CANONICAL: Record<string, string> = {
  'audio/ogg': 'audio/ogg; codecs=opus',
  'audio/opus': 'audio/ogg; codecs=opus',
  'audio/mp3': 'audio/mpeg',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-aac': 'audio/aac',
  'image/jpg': 'image/jpeg',
};

/** File extensions → mimetype, for a stored file whose mimetype wasn't kept. */
const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  '3gp': 'video/3gpp',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg; codecs=opus',
  oga: 'audio/ogg; codecs=opus',
  opus: 'audio/ogg; codecs=opus',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  amr: 'audio/amr',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  txt: 'text/plain',
  csv: 'text/csv',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  xml: 'application/xml',
  json: 'application/json',
};

/**
 * When nothing else says: the inbox's own producers per media type. `audio/mpeg` because the composer's
 * recorder makes mp3 for WhatsApp (docs/product/tickets-and-inbox.md#constants-and-limits).
 */
const BY_MEDIA_TYPE: Record<string, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/mpeg',
};

/** An Ogg file starts with `OggS`: the one container whose voice-note mimetype differs from its name's. */
function isOgg(file: Buffer | null): boolean {
  return file !== null && file.length >= 4 && file.subarray(0, 4).toString('latin1') === 'OggS';
}

function canonical(mimetype: string): string {
  const lower = mimetype.trim().toLowerCase();
  const bare = lower.split(';')[0]?.trim() ?? lower;
  if (bare === 'audio/ogg' && lower.includes('opus')) return 'audio/ogg; codecs=opus';
  return CANONICAL[bare] ?? bare;
}

/**
 * The mimetype of a stored file: the stored one (normalised), else by the file name's extension, else by the
 * content for Ogg audio, else the media type's default, else `application/octet-stream`.
 */
export function outboundMimetype(mediaType: string, fileName: string, stored: string | null, file: Buffer | null): string {
  if (stored?.trim()) return canonical(stored);
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(fileName)?.[1]?.toLowerCase();
  const byName = extension ? BY_EXTENSION[extension] : undefined;
  if (byName) return byName;
  if (isOgg(file)) return 'audio/ogg; codecs=opus';
  return BY_MEDIA_TYPE[mediaType] ?? 'application/octet-stream';
}

/**
 * How a file goes: as the product's media type says when WhatsApp shows that format inline, else as a
 * document. A media type that isn't a file's (a forwarded ad preview with its picture) goes by the mimetype.
 */
export function outboundMediaKind(mediaType: string, mimetype: string): OutboundMediaKind {
  const family = ['image', 'video', 'audio'].includes(mediaType) ? mediaType : mimetype.split('/')[0];
  if (family === 'image' && INLINE_IMAGES.has(mimetype)) return 'image';
  if (family === 'video' && INLINE_VIDEOS.has(mimetype)) return 'video';
  if (family === 'audio' && INLINE_AUDIO.has(mimetype)) return 'audio';
  return 'document';
}
