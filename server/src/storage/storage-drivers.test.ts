import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { AppError, type StorageService } from '@balcao/plugin-sdk/server';
import { S3StandIn } from '@balcao/plugin-sdk/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk';
import { S3Storage } from './s3';

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A stream of `chunks` pieces of `size` bytes each. */
const chunked = (chunks: number, size: number) => Readable.from(Array.from({ length: chunks }, () => Buffer.alloc(size, 120)));

const standIn = new S3StandIn('AKIDBALCAOTEST', 'stand-in secret key of the tests', 'sa-east-1');
let endpoint = '';
beforeAll(async () => {
  endpoint = await standIn.start();
});
afterAll(() => standIn.stop());

/** A driver under test, with a way to see what it really holds (files on disk, objects in the bucket). */
interface Driver {
  storage: StorageService;
  /** Every stored file or object, as `company<id>/<key>`, sorted. */
  stored(): string[];
  /** A stored file's bytes, read around the driver. */
  bytesOf(companyKey: string): Buffer | undefined;
  close(): void;
}

let root: string;
const drivers: Record<'local' | 's3', () => Driver> = {
  local: () => ({
    storage: new LocalDiskStorage(root),
    stored: () => filesUnder(root).filter((file) => file !== 'outside.txt'),
    bytesOf: (companyKey) => (existsSync(path.join(root, companyKey)) ? readFileSync(path.join(root, companyKey)) : undefined),
    close: () => {},
  }),
  s3: () => {
    standIn.buckets.set('balcao', new Map());
    const storage = new S3Storage({
      endpoint,
      bucket: 'balcao',
      region: 'sa-east-1',
      accessKeyId: 'AKIDBALCAOTEST',
      secretAccessKey: 'stand-in secret key of the tests',
      forcePathStyle: true,
      spoolDir: root,
    });
    return {
      storage,
      stored: () => standIn.keys(),
      bytesOf: (companyKey) => standIn.buckets.get('balcao')?.get(companyKey)?.body,
      close: () => storage.close(),
    };
  },
};

describe.each(['local', 's3'] as const)('the %s storage driver', (driverName) => {
  let storage: StorageService;
  let driver: Driver;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'balcao-storage-'));
    driver = drivers[driverName]();
    storage = driver.storage;
  });
  afterEach(() => {
    driver.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('puts, gets, stats and deletes files in the company folder', async () => {
    expect(await storage.put(7, 'media/photo.v2.jpg', Buffer.from('jpeg bytes'))).toEqual({
      key: 'media/photo.v2.jpg',
      size: 10,
    });
    expect(driver.bytesOf('company7/media/photo.v2.jpg')?.toString()).toBe('jpeg bytes');

    const stream = await storage.get(7, 'media/photo.v2.jpg');
    expect(stream).not.toBeNull();
    expect(await text(stream as Readable)).toBe('jpeg bytes');
    expect(await storage.stat(7, 'media/photo.v2.jpg')).toEqual({ size: 10, modifiedAt: expect.any(Date) });

    await storage.delete(7, 'media/photo.v2.jpg');
    expect(await storage.get(7, 'media/photo.v2.jpg')).toBeNull();
    expect(await storage.stat(7, 'media/photo.v2.jpg')).toBeNull();
    await expect(storage.delete(7, 'media/photo.v2.jpg')).resolves.toBeUndefined();
  });

  it('reads a folder as no file', async () => {
    await storage.put(7, 'media/a.jpg', Buffer.from('a'));
    expect(await storage.get(7, 'media')).toBeNull();
    expect(await storage.stat(7, 'media')).toBeNull();
  });

  it('takes streams, and replaces a file whole', async () => {
    expect(await storage.put(7, 'export.csv', chunked(3, 1000))).toEqual({ key: 'export.csv', size: 3000 });
    await storage.put(7, 'export.csv', Buffer.from('short'));
    expect(await text((await storage.get(7, 'export.csv')) as Readable)).toBe('short');
  });

  it("keeps companies apart: one company's key never reaches another's file", async () => {
    await storage.put(1, 'logo.png', Buffer.from('one'));
    await storage.put(2, 'logo.png', Buffer.from('two!'));
    expect(await text((await storage.get(1, 'logo.png')) as Readable)).toBe('one');
    expect(await storage.stat(3, 'logo.png')).toBeNull();
    await storage.delete(3, 'logo.png');
    expect(await storage.stat(2, 'logo.png')).toEqual({ size: 4, modifiedAt: expect.any(Date) });
  });

  it("deletes a whole company's files, and only that company's", async () => {
    await storage.put(4, 'media/a.png', Buffer.from('a'));
    await storage.put(4, 'logo.png', Buffer.from('b'));
    await storage.put(5, 'logo.png', Buffer.from('c'));
    await storage.deleteAll(4);
    expect(await storage.usage(4)).toEqual({ bytes: 0, files: 0, updatedAt: null });
    expect(await storage.stat(5, 'logo.png')).toEqual({ size: 1, modifiedAt: expect.any(Date) });
    await storage.deleteAll(6); // a company without files
  });

  it('sums a company folder: bytes, files and last update', async () => {
    expect(await storage.usage(9)).toEqual({ bytes: 0, files: 0, updatedAt: null });
    await storage.put(9, 'a.txt', Buffer.from('12345'));
    await storage.put(9, 'deep/er/b.txt', Buffer.from('123'));
    await storage.put(10, 'other.txt', Buffer.from('1234567890'));
    const usage = await storage.usage(9);
    expect(usage).toEqual({ bytes: 8, files: 2, updatedAt: expect.any(Date) });
    expect((usage.updatedAt as Date).getTime()).toBeLessThanOrEqual(Date.now());
  });

  const escapes = [
    '../company8/secret.txt',
    '../../etc/passwd',
    '/etc/passwd',
    'a/../../b',
    'a/../b',
    './a',
    'a/./b',
    'a//b',
    'a/',
    '',
    '.hidden',
    'a\\..\\..\\b',
    'a\u0000b',
    '%2e%2e/x',
    'C:/windows',
  ];
  it.each(escapes)('refuses the key %j on every operation, touching nothing', async (key) => {
    writeFileSync(path.join(root, 'outside.txt'), 'outside');
    const refused = expect.objectContaining({ code: 'ERR_VALIDATION', status: 400 });
    await expect(storage.put(8, key, Buffer.from('x'))).rejects.toEqual(refused);
    await expect(storage.put(8, key, Buffer.from('x'))).rejects.toBeInstanceOf(AppError);
    await expect(storage.get(8, key)).rejects.toEqual(refused);
    await expect(storage.stat(8, key)).rejects.toEqual(refused);
    await expect(storage.delete(8, key)).rejects.toEqual(refused);
    expect(driver.stored()).toEqual([]);
    expect(filesUnder(root)).toEqual(['outside.txt']);
  });

  it('refuses a company id that is not a positive integer', async () => {
    for (const companyId of [0, -1, 1.5, Number.NaN]) {
      await expect(storage.put(companyId, 'a.txt', Buffer.from('x'))).rejects.toThrow(/bad company id/);
      await expect(storage.usage(companyId)).rejects.toThrow(/bad company id/);
    }
  });

  it('refuses a file over maxBytes without leaving any part of it, nor harming the previous version', async () => {
    await storage.put(5, 'upload.bin', Buffer.from('previous'));
    await expect(storage.put(5, 'upload.bin', chunked(5, 1000), { maxBytes: 4096 })).rejects.toEqual(
      expect.objectContaining({ code: 'ERR_PAYLOAD_TOO_LARGE', status: 413 }),
    );
    await expect(storage.put(5, 'fresh.bin', Buffer.alloc(4097), { maxBytes: 4096 })).rejects.toThrow('ERR_PAYLOAD_TOO_LARGE');
    expect(driver.stored()).toEqual(['company5/upload.bin']);
    expect(driver.bytesOf('company5/upload.bin')?.toString()).toBe('previous');
    expect(await storage.put(5, 'exact.bin', Buffer.alloc(4096), { maxBytes: 4096 })).toEqual({ key: 'exact.bin', size: 4096 });
  });

  it('leaves no part file when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(100));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(storage.put(6, 'broken.bin', failing)).rejects.toThrow('connection reset');
    expect(driver.stored()).toEqual([]);
    expect(filesUnder(root)).toEqual([]);
  });

  it('keeps concurrent writes of one key whole: the file is one of them, never a mix', async () => {
    const contents = Array.from({ length: 6 }, (_, index) => Buffer.alloc(100_000 + index * 1000, 97 + index));
    const results = await Promise.allSettled(contents.map((content) => storage.put(4, 'same.bin', content)));
    expect(results.map((result) => result.status)).toEqual(contents.map(() => 'fulfilled'));
    const stored = driver.bytesOf('company4/same.bin') as Buffer;
    expect(contents.some((content) => content.equals(stored))).toBe(true);
    expect(driver.stored()).toEqual(['company4/same.bin']);
  });
});

describe('the s3 driver against the stand-in', () => {
  const options = {
    bucket: 'balcao',
    region: 'sa-east-1',
    accessKeyId: 'AKIDBALCAOTEST',
    secretAccessKey: 'stand-in secret key of the tests',
    forcePathStyle: true,
  };
  let storage: S3Storage;
  beforeEach(() => {
    standIn.buckets.set('balcao', new Map());
    standIn.seen.length = 0;
    storage = new S3Storage({ ...options, endpoint });
  });
  afterEach(() => {
    standIn.pageSize = 1000;
    storage.close();
  });

  it('signs every call with SigV4 and uses only the calls the stand-in serves', async () => {
    await storage.put(3, 'a/b.txt', Buffer.from('one'));
    await storage.put(3, 'c.txt', Readable.from([Buffer.from('two')]));
    await storage.stat(3, 'a/b.txt');
    await text((await storage.get(3, 'c.txt')) as Readable);
    await storage.get(3, 'missing.txt');
    await storage.delete(3, 'c.txt');
    await storage.usage(3);
    await storage.deleteAll(3);
    expect(standIn.seen.map((call) => call.status).filter((status) => status === 403 || status === 501)).toEqual([]);
    expect(new Set(standIn.seen.map((call) => call.method))).toEqual(new Set(['PUT', 'HEAD', 'GET', 'DELETE', 'POST']));
    expect(standIn.keys()).toEqual([]);
  });

  it('sends a streamed upload again when S3 answers 503, from the start of the file', async () => {
    const body = Buffer.from('streamed twice '.repeat(1000));
    standIn.failNext('PUT');
    expect(await storage.put(4, 'media/retried.bin', Readable.from([body]))).toEqual({
      key: 'media/retried.bin',
      size: body.length,
    });
    expect(standIn.seen.filter((call) => call.method === 'PUT').map((call) => call.status)).toEqual([503, 200]);
    expect(standIn.buckets.get('balcao')?.get('company4/media/retried.bin')?.body.equals(body)).toBe(true);
    // an outage that outlasts the attempts still fails the upload
    standIn.failNext('PUT', 3);
    await expect(storage.put(4, 'media/lost.bin', Readable.from([body]))).rejects.toThrow();
    expect(standIn.keys().includes('company4/media/lost.bin')).toBe(false);
  });

  it('fails loudly, never as a missing file, when the bucket refuses the credentials', async () => {
    await storage.put(3, 'kept.txt', Buffer.from('kept'));
    const forged = new S3Storage({ ...options, endpoint, secretAccessKey: 'not the secret' });
    const stranger = new S3Storage({ ...options, endpoint, accessKeyId: 'AKIDSOMEONEELSE' });
    try {
      await expect(forged.get(3, 'kept.txt')).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
      await expect(forged.put(3, 'kept.txt', Buffer.from('changed'))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
      await expect(stranger.stat(3, 'kept.txt')).rejects.toThrow();
      await expect(stranger.delete(3, 'kept.txt')).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    } finally {
      forged.close();
      stranger.close();
    }
    expect(standIn.buckets.get('balcao')?.get('company3/kept.txt')?.body.toString()).toBe('kept');
  });

  it('walks every page of a large folder for usage and deleteAll, and only that folder', async () => {
    standIn.pageSize = 2;
    for (const name of ['a', 'b', 'c', 'd', 'e']) await storage.put(12, `media/${name}.txt`, Buffer.from(name.repeat(3)));
    await storage.put(1, 'media/a.txt', Buffer.from('other'));
    await storage.put(120, 'media/a.txt', Buffer.from('prefix-alike'));
    expect(await storage.usage(12)).toEqual({ bytes: 15, files: 5, updatedAt: expect.any(Date) });
    await storage.deleteAll(12);
    expect(standIn.keys()).toEqual(['company1/media/a.txt', 'company120/media/a.txt']);
    const lists = standIn.seen.filter((call) => call.query.get('list-type') === '2');
    expect(lists.every((call) => call.query.get('prefix') === 'company12/')).toBe(true);
  });
});
