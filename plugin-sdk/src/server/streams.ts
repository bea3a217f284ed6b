import type { Readable } from 'node:stream';
import { AppError } from './errors';

/**
 * Reads an upload stream into memory, refusing it past `maxBytes` (or when the multipart parser cut it
 * short at its own limit) with 413 ERR_PAYLOAD_TOO_LARGE: for files small enough to check by content
 * before storing (avatars, logos, greeting media).
 */
export async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.resume();
      throw new AppError('ERR_PAYLOAD_TOO_LARGE');
    }
    chunks.push(chunk as Buffer);
  }
  if ((stream as Readable & { truncated?: boolean }).truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
  return Buffer.concat(chunks);
}
