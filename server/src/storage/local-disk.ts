import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, type StorageService } from '@balcao/plugin-sdk/server';
import { MEDIA_URL_TTL_MS, type MediaSigner } from './signed-media';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Characters of a download name a signed link carries: with the key, the token stays under the router's 500. */
const LINK_FILE_NAME_CHARS = 60;

/**
 * The download name a signed link carries, shortened (extension kept) so that the link works whatever
 * name a feature stored: the token is base64 of JSON, and non-ASCII names grow up to 4× in it.
 */
export function linkFileName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= LINK_FILE_NAME_CHARS && Buffer.byteLength(name) <= LINK_FILE_NAME_CHARS * 2) return name;
  const ext = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
  let base = chars.slice(0, LINK_FILE_NAME_CHARS - ext.length);
  while (base.length > 1 && Buffer.byteLength(base.join('')) > LINK_FILE_NAME_CHARS * 2 - ext.length) base = base.slice(0, -1);
  return `${base.join('').trimEnd()}${ext}`;
}

/** A company's folder name (`company<id>`), the same on disk and in a bucket; refuses a bad id. */
export function companyFolder(companyId: number): string {
  if (!Number.isInteger(companyId) || companyId < 1) throw new Error(`bad company id ${companyId}`);
  return `company${companyId}`;
}

/** The key itself when it stays inside its company's folder; a 400 otherwise (`..`, absolute, odd characters). */
export function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new AppError('ERR_VALIDATION', { details: [{ field: 'key', message: 'invalid file name' }] });
  }
  return key;
}

/**
 * The server's own signed address of a file (`<mediaBase>/media/<token>`), whichever driver stores it:
 * downloads always stream through `GET /media/:token`, which checks the grant.
 */
export function signedMediaUrl(
  signer: MediaSigner | undefined,
  mediaBase: string,
  companyId: number,
  key: string,
  options: { ttlMs?: number; fileName?: string },
): string {
  if (!signer) throw new Error('signedUrl needs a MediaSigner');
  companyFolder(companyId);
  checkedKey(key); // refuse a bad key now, not when the address is used
  const token = signer.sign({
    companyId,
    key,
    expiresAt: Date.now() + (options.ttlMs ?? MEDIA_URL_TTL_MS),
    fileName: options.fileName === undefined ? undefined : linkFileName(options.fileName),
  });
  return `${mediaBase}/media/${token}`;
}

/**
 * Files on local disk, one folder per company (`<root>/company<id>/<key>`). Keys are checked so that no
 * key can climb out of its company's folder. Writes go to a temporary name first, so a failed or
 * oversized upload never leaves half a file.
 */
export class LocalDiskStorage implements StorageService {
  /** `signer` and `mediaBase` (the API prefix) make `signedUrl` work; without them it throws. */
  constructor(
    private readonly root: string,
    private readonly signer?: MediaSigner,
    private readonly mediaBase = '/api',
  ) {}

  signedUrl(companyId: number, key: string, options: { ttlMs?: number; fileName?: string } = {}): string {
    return signedMediaUrl(this.signer, this.mediaBase, companyId, key, options);
  }

  private companyDir(companyId: number): string {
    return path.join(this.root, companyFolder(companyId));
  }

  private filePath(companyId: number, key: string): string {
    return path.join(this.companyDir(companyId), checkedKey(key));
  }

  async put(companyId: number, key: string, data: Readable | Buffer, options: { maxBytes?: number } = {}) {
    const target = this.filePath(companyId, key);
    await mkdir(path.dirname(target), { recursive: true });
    // unique per write: two uploads of one key at once must not share (and corrupt) one part file
    const temporary = `${target}.${randomUUID()}.part`;
    let size = 0;
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit) callback(new AppError('ERR_PAYLOAD_TOO_LARGE'));
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, counter, createWriteStream(temporary));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { key, size };
  }

  async get(companyId: number, key: string): Promise<Readable | null> {
    const file = this.filePath(companyId, key);
    try {
      // a folder is no file: reading it would fail later, inside the stream
      if (!(await stat(file)).isFile()) return null;
    } catch {
      return null;
    }
    return createReadStream(file);
  }

  async stat(companyId: number, key: string) {
    const file = this.filePath(companyId, key); // a bad key is refused, not reported as missing
    try {
      const info = await stat(file);
      return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
    } catch {
      return null;
    }
  }

  async delete(companyId: number, key: string): Promise<void> {
    await rm(this.filePath(companyId, key), { force: true });
  }

  async deleteAll(companyId: number): Promise<void> {
    await rm(this.companyDir(companyId), { recursive: true, force: true });
  }

  async usage(companyId: number) {
    let bytes = 0;
    let files = 0;
    let updatedAt: Date | null = null;
    const walk = async (dir: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) {
          const info = await stat(full);
          bytes += info.size;
          files += 1;
          if (!updatedAt || info.mtime > updatedAt) updatedAt = info.mtime;
        }
      }
    };
    await walk(this.companyDir(companyId));
    return { bytes, files, updatedAt };
  }
}
