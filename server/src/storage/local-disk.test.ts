import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { AppError, type StorageService } from '@balcao/plugin-sdk/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from './local-disk';

let root: string;
let storage: StorageService;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'balcao-storage-'));
  storage = new LocalDiskStorage(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

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

describe('LocalDiskStorage', () => {
  it('puts, gets, stats and deletes files in the company folder', async () => {
    expect(await storage.put(7, 'media/photo.v2.jpg', Buffer.from('jpeg bytes'))).toEqual({
      key: 'media/photo.v2.jpg',
      size: 10,
    });
    expect(readFileSync(path.join(root, 'company7', 'media', 'photo.v2.jpg'), 'utf8')).toBe('jpeg bytes');

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
    expect(filesUnder(path.join(root, 'company5'))).toEqual(['upload.bin']);
    expect(readFileSync(path.join(root, 'company5', 'upload.bin'), 'utf8')).toBe('previous');
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
    expect(filesUnder(root)).toEqual([]);
  });

  it('keeps concurrent writes of one key whole: the file is one of them, never a mix', async () => {
    const contents = Array.from({ length: 6 }, (_, index) => Buffer.alloc(100_000 + index * 1000, 97 + index));
    const results = await Promise.allSettled(contents.map((content) => storage.put(4, 'same.bin', content)));
    expect(results.map((result) => result.status)).toEqual(contents.map(() => 'fulfilled'));
    const stored = readFileSync(path.join(root, 'company4', 'same.bin'));
    expect(contents.some((content) => content.equals(stored))).toBe(true);
    expect(filesUnder(path.join(root, 'company4'))).toEqual(['same.bin']);
  });
});
