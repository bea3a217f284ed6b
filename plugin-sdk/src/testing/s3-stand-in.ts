import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One object as the stand-in keeps it. */
export interface StoredS3Object {
  body: Buffer;
  lastModified: Date;
  etag: string;
}

/** A request the stand-in answered, for assertions on what our client sent. */
export interface SeenS3Request {
  method: string;
  bucket: string;
  key: string;
  query: URLSearchParams;
  status: number;
}

/**
 * A local stand-in for the few S3 calls Balcão's S3 driver (`STORAGE_DRIVER=s3`) makes — PutObject, GetObject, HeadObject,
 * DeleteObject, DeleteObjects and ListObjectsV2 — in path style, over plain HTTP. It checks each
 * request's Signature Version 4 the way S3 does (the canonical request, the signing key from the secret,
 * the payload's hash when it is signed), so a test proves the real AWS client signs what it sends with
 * the credentials given; anything else answers S3's XML errors. A test app on it:
 * `createTestApp({ config: { storageDriver: 's3', s3Endpoint: await standIn.start(), s3Bucket: 'balcao',
 * s3AccessKeyId, s3SecretAccessKey, s3Region, s3ForcePathStyle: true } })`.
 */
export class S3StandIn {
  readonly buckets = new Map<string, Map<string, StoredS3Object>>();
  readonly seen: SeenS3Request[] = [];
  /** Objects per ListObjectsV2 page (S3's 1,000; tests lower it to walk the pages). */
  pageSize = 1000;
  private server?: Server;
  private readonly failures: Array<{ method: string; status: number }> = [];

  constructor(
    readonly accessKeyId: string,
    private readonly secretAccessKey: string,
    readonly region = 'us-east-1',
    bucketNames: string[] = ['balcao'],
  ) {
    for (const name of bucketNames) this.buckets.set(name, new Map());
  }

  /** Starts on a free loopback port; answers the endpoint to give the client. */
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.reply(response, 500, 'InternalError', String(error));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * Answers the next `times` signed `method` requests (PUT, GET, HEAD …) with `status` (503 SlowDown by
   * default) instead of serving them: a test's way to make storage fail for a while.
   */
  failNext(method: string, times = 1, status = 503): void {
    for (let index = 0; index < times; index++) this.failures.push({ method: method.toUpperCase(), status });
  }

  /** The keys of a bucket, sorted (what a test compares against). */
  keys(bucket = 'balcao'): string[] {
    return [...(this.buckets.get(bucket)?.keys() ?? [])].sort();
  }

  private reply(response: ServerResponse, status: number, code: string, message: string): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(status, { 'content-type': 'application/xml' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xml(message)}</Message></Error>`);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const [, bucketName = '', ...keyParts] = url.pathname.split('/');
    const key = keyParts.map((part) => decodeURIComponent(part)).join('/');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = request.method ?? 'GET';
    const record = (status: number) => this.seen.push({ method, bucket: bucketName, key, query: url.searchParams, status });

    const refusal = this.signatureProblem(request, url, body);
    if (refusal) {
      record(403);
      this.reply(response, 403, refusal.code, refusal.message);
      return;
    }
    const failure = this.failures.findIndex((each) => each.method === method);
    if (failure >= 0) {
      const { status } = this.failures.splice(failure, 1)[0] as { status: number };
      record(status);
      if (method === 'HEAD') response.writeHead(status).end();
      else this.reply(response, status, status === 503 ? 'SlowDown' : 'InternalError', 'Injected failure');
      return;
    }
    const bucket = this.buckets.get(decodeURIComponent(bucketName));
    if (!bucket) {
      record(404);
      this.reply(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      return;
    }

    if (method === 'PUT' && key) {
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      bucket.set(key, { body, lastModified: new Date(), etag });
      record(200);
      response.writeHead(200, { etag }).end();
      return;
    }
    if ((method === 'GET' || method === 'HEAD') && key) {
      const object = bucket.get(key);
      if (!object) {
        record(404);
        if (method === 'HEAD') response.writeHead(404).end();
        else this.reply(response, 404, 'NoSuchKey', 'The specified key does not exist.');
        return;
      }
      record(200);
      response.writeHead(200, {
        'content-length': object.body.length,
        'content-type': 'application/octet-stream',
        etag: object.etag,
        'last-modified': object.lastModified.toUTCString(),
      });
      response.end(method === 'HEAD' ? undefined : object.body);
      return;
    }
    if (method === 'DELETE' && key) {
      bucket.delete(key);
      record(204);
      response.writeHead(204).end();
      return;
    }
    if (method === 'POST' && !key && url.searchParams.has('delete')) {
      // S3 refuses a multi-object delete without an integrity header
      if (!request.headers['content-md5'] && !Object.keys(request.headers).some((name) => name.startsWith('x-amz-checksum-'))) {
        record(400);
        this.reply(response, 400, 'InvalidRequest', 'Missing required header for this request: Content-MD5');
        return;
      }
      const keys = [...body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => unxml(match[1] ?? ''));
      for (const gone of keys) bucket.delete(gone);
      record(200);
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
      return;
    }
    if (method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('continuation-token') ?? url.searchParams.get('start-after') ?? '';
      const urlEncoded = url.searchParams.get('encoding-type') === 'url';
      const maxKeys = Math.min(Number(url.searchParams.get('max-keys') ?? this.pageSize), this.pageSize);
      const matching = [...bucket.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
      const page = matching.slice(0, maxKeys);
      const truncated = matching.length > page.length;
      const shown = (name: string) => xml(urlEncoded ? encodeURIComponent(name) : name);
      const contents = page
        .map((name) => {
          const object = bucket.get(name) as StoredS3Object;
          return `<Contents><Key>${shown(name)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${xml(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
        })
        .join('');
      record(200);
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${xml(bucketName)}</Name><Prefix>${shown(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${truncated ? `<NextContinuationToken>${xml(page.at(-1) ?? '')}</NextContinuationToken>` : ''}${urlEncoded ? '<EncodingType>url</EncodingType>' : ''}</ListBucketResult>`,
      );
      return;
    }
    record(501);
    this.reply(
      response,
      501,
      'NotImplemented',
      `${method} ${url.pathname}${url.search} is not one of the calls this stand-in serves`,
    );
  }

  /** What S3 would say about the request's SigV4 signature, or null when it is valid. */
  private signatureProblem(request: IncomingMessage, url: URL, body: Buffer): { code: string; message: string } | null {
    const authorization = request.headers.authorization ?? '';
    const parsed =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        authorization,
      );
    if (!parsed) return { code: 'AccessDenied', message: 'no Signature Version 4 authorization header' };
    const [, accessKeyId, day, region, signedHeaderList, signature] = parsed as unknown as string[];
    if (accessKeyId !== this.accessKeyId) return { code: 'InvalidAccessKeyId', message: 'unknown access key' };
    const amzDate = String(request.headers['x-amz-date'] ?? '');
    const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
    if (!amzDate.startsWith(day as string) || !payloadHash) {
      return { code: 'AccessDenied', message: 'x-amz-date and x-amz-content-sha256 are required' };
    }
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== createHash('sha256').update(body).digest('hex')) {
      return { code: 'XAmzContentSHA256Mismatch', message: 'the payload does not match its hash' };
    }
    const signedHeaders = (signedHeaderList as string).split(';');
    if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) {
      return { code: 'AccessDenied', message: 'host and x-amz-date must be signed' };
    }
    const canonicalQuery = [...url.searchParams.entries()]
      .map(([name, value]) => [strictEncode(name), strictEncode(value)] as const)
      .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const canonicalHeaders = signedHeaders
      .map(
        (name) =>
          `${name}:${String(request.headers[name] ?? '')
            .trim()
            .replace(/\s+/g, ' ')}\n`,
      )
      .join('');
    const canonicalRequest = [request.method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaderList, payloadHash].join(
      '\n',
    );
    const scope = `${day}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join(
      '\n',
    );
    let signingKey = Buffer.from(`AWS4${this.secretAccessKey}`);
    for (const part of [day as string, region as string, 's3', 'aws4_request']) {
      signingKey = createHmac('sha256', signingKey).update(part).digest();
    }
    const expected = createHmac('sha256', signingKey).update(stringToSign).digest();
    if (!timingSafeEqual(expected, Buffer.from(signature as string, 'hex'))) {
      return { code: 'SignatureDoesNotMatch', message: 'the request signature does not match' };
    }
    return null;
  }
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unxml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** RFC 3986 encoding, as SigV4's canonical query wants it. */
function strictEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
