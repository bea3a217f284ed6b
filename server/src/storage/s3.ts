import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type _Object,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { AppError, type StorageService } from '@balcao/plugin-sdk/server';
import { checkedKey, companyFolder, signedMediaUrl } from './local-disk';
import type { MediaSigner } from './signed-media';

/** How to reach an S3-compatible bucket (AWS, MinIO, Ceph, R2 …). */
export interface S3StorageOptions {
  /** Endpoint of a non-AWS service (`https://minio.internal:9000`); AWS's own when null. */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path rather than the host name: what most self-hosted services need. */
  forcePathStyle: boolean;
  /** Where an upload is counted and held before it is sent (the system's temporary folder by default). */
  spoolDir?: string;
}

/** Attempts at sending a spooled upload: the SDK never retries a streamed body, so the driver does. */
const STREAM_PUT_ATTEMPTS = 3;

/** An answer worth another attempt: a throttle, a server error, or no answer at all (a dropped connection). */
function isTransient(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  const status = failure.$metadata?.httpStatusCode;
  if (status === undefined) return !(error instanceof AppError);
  return status >= 500 || status === 429 || failure.name === 'SlowDown' || Boolean(failure.$retryable);
}

/** The largest DeleteObjects request S3 accepts. */
const DELETE_BATCH = 1000;

function isMissing(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure.name === 'NoSuchKey' || failure.name === 'NotFound' || failure.$metadata?.httpStatusCode === 404;
}

/**
 * Files in an S3-compatible bucket, under the same layout as the disk (`company<id>/<key>`), so a
 * disk's folder copied into a bucket is read as it was. Keys are checked as on disk. An upload is
 * counted into a temporary file first: a stream over `maxBytes` fails before anything is sent, a
 * failed source leaves no object, and S3 gets a single PutObject with its exact length (no multipart
 * upload to abandon, and a replaced object is never seen half written).
 */
export class S3Storage implements StorageService {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly spoolDir: string;

  constructor(
    options: S3StorageOptions,
    private readonly signer?: MediaSigner,
    private readonly mediaBase = '/api',
  ) {
    this.bucket = options.bucket;
    this.spoolDir = options.spoolDir ?? tmpdir();
    this.client = new S3Client({
      endpoint: options.endpoint ?? undefined,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // checksums only where S3 requires them (DeleteObjects): S3-compatible services reject the SDK's
      // default trailing checksums on a streamed body, and an exact length is sent anyway
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  private objectKey(companyId: number, key: string): string {
    return `${companyFolder(companyId)}/${checkedKey(key)}`;
  }

  signedUrl(companyId: number, key: string, options: { ttlMs?: number; fileName?: string } = {}): string {
    return signedMediaUrl(this.signer, this.mediaBase, companyId, key, options);
  }

  async put(companyId: number, key: string, data: Readable | Buffer, options: { maxBytes?: number } = {}) {
    const objectKey = this.objectKey(companyId, key);
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    if (Buffer.isBuffer(data)) {
      if (data.length > limit) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: data, ContentLength: data.length }),
      );
      return { key, size: data.length };
    }
    const spool = path.join(this.spoolDir, `balcao-upload-${randomUUID()}.part`);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit) callback(new AppError('ERR_PAYLOAD_TOO_LARGE'));
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(data, counter, createWriteStream(spool));
      for (let attempt = 1; ; attempt++) {
        // a fresh read of the spool each time: a body stream the failed attempt consumed can't be sent again
        const body = createReadStream(spool);
        try {
          await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: body, ContentLength: size }));
          break;
        } catch (error) {
          body.destroy();
          if (attempt >= STREAM_PUT_ATTEMPTS || !isTransient(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
        }
      }
    } finally {
      await rm(spool, { force: true });
    }
    return { key, size };
  }

  async get(companyId: number, key: string): Promise<Readable | null> {
    const objectKey = this.objectKey(companyId, key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return answer.Body instanceof Readable ? answer.Body : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stat(companyId: number, key: string) {
    const objectKey = this.objectKey(companyId, key);
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return { size: answer.ContentLength ?? 0, modifiedAt: answer.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(companyId: number, key: string): Promise<void> {
    // S3 answers 204 for a key that isn't there: deleting twice is fine
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(companyId, key) }));
  }

  /** Every object under a company's folder, a page (up to 1,000) at a time. */
  private async *objectsOf(companyId: number): AsyncGenerator<_Object[]> {
    const prefix = `${companyFolder(companyId)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      yield page.Contents ?? [];
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async deleteAll(companyId: number): Promise<void> {
    for await (const page of this.objectsOf(companyId)) {
      const keys = page.flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const answer = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: keys.slice(start, start + DELETE_BATCH), Quiet: true },
          }),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0) throw new Error(`S3 kept ${failed.length} objects of company ${companyId}: ${failed[0]?.Code}`);
      }
    }
  }

  async usage(companyId: number) {
    let bytes = 0;
    let files = 0;
    let updatedAt: Date | null = null;
    for await (const page of this.objectsOf(companyId)) {
      for (const object of page) {
        bytes += object.Size ?? 0;
        files += 1;
        if (object.LastModified && (!updatedAt || object.LastModified > updatedAt)) updatedAt = object.LastModified;
      }
    }
    return { bytes, files, updatedAt };
  }

  /** Releases the client's sockets (at shutdown). */
  close(): void {
    this.client.destroy();
  }
}
