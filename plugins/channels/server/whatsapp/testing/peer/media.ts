import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getMediaKeys, type MediaType } from '@whiskeysockets/baileys';
import type { PeerTls } from './tls';

/**
 * WhatsApp's media hosts, locally: an HTTPS server that takes the encrypted uploads Baileys makes
 * (`POST /mms/<type>/<fileEncSha256>?auth=…&token=…`, answering `{ url, direct_path }`) and serves every stored
 * blob back by its direct path (`GET <direct_path>`, with byte ranges). Blobs stay encrypted, as on the real
 * servers: only the holders of the media key (in the message) can read them.
 */
export class MediaServer {
  private readonly blobs = new Map<string, Buffer>();
  private server: Server | undefined;
  /** where it listens: `127.0.0.1` and a random port */
  address = { host: '127.0.0.1', port: 0 };
  /**
   * The host name given to clients in `media_conn` and used in media URLs: WhatsApp's own. The peer's agents
   * (`httpsAgent`, `fetchDispatcher`) take every connection to this server whatever the name.
   */
  readonly host = 'mmg.whatsapp.net';
  /** the upload token handed out in `media_conn`; uploads without it are refused, as WhatsApp refuses them */
  readonly auth = randomBytes(24).toString('base64url');
  uploads = 0;

  async start(tls: PeerTls): Promise<void> {
    this.server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const url = new URL(req.url ?? '/', 'https://peer');
      if (req.method === 'POST') {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          if (url.searchParams.get('auth') !== this.auth) {
            res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad auth"}');
            return;
          }
          const body = Buffer.concat(chunks);
          // the token is the url-safe base64 of the encrypted file's SHA-256 (Baileys' fileEncSha256B64)
          const token = url.searchParams.get('token') ?? '';
          if (token !== createHash('sha256').update(body).digest('base64url')) {
            res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"hash mismatch"}');
            return;
          }
          this.uploads++;
          const directPath = this.put(body);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ url: this.urlFor(directPath), direct_path: directPath }));
        });
        return;
      }
      const blob = this.blobs.get(url.pathname);
      if (req.method !== 'GET' || !blob) {
        res.writeHead(404).end();
        return;
      }
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), blob.length - 1) : blob.length - 1;
        res.writeHead(206, {
          'content-type': 'application/octet-stream',
          'content-range': `bytes ${start}-${end}/${blob.length}`,
          'content-length': String(end - start + 1),
        });
        res.end(blob.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(blob.length) });
      res.end(blob);
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.address = { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
  }

  /** Stores an (encrypted) blob; returns its direct path, shaped like WhatsApp's. */
  put(blob: Buffer): string {
    const directPath = `/v/t62.7118-24/${randomBytes(16).toString('hex')}.enc`;
    this.blobs.set(directPath, blob);
    return `${directPath}?ccb=11-4&oh=${randomBytes(8).toString('hex')}&oe=${Date.now().toString(16)}&_nc_sid=5e03e0`;
  }

  get(directPathOrUrl: string): Buffer | undefined {
    return this.blobs.get(new URL(directPathOrUrl, 'https://peer').pathname);
  }

  urlFor(directPath: string): string {
    return `https://${this.host}${directPath}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export interface EncryptedMedia {
  mediaKey: Buffer;
  /** the AES-256-CBC ciphertext followed by the 10-byte truncated HMAC: what is uploaded */
  enc: Buffer;
  fileSha256: Buffer;
  fileEncSha256: Buffer;
  fileLength: number;
}

/**
 * WhatsApp media encryption (what Baileys' `encryptedStream` does, in memory): keys expanded from a random
 * media key with Baileys' own `getMediaKeys`, AES-256-CBC, then the first 10 bytes of HMAC-SHA256(iv ‖ ciphertext).
 */
export async function encryptMedia(plain: Buffer, type: MediaType): Promise<EncryptedMedia> {
  const mediaKey = randomBytes(32);
  const { cipherKey, iv, macKey = new Uint8Array() } = await getMediaKeys(mediaKey, type);
  const aes = createCipheriv('aes-256-cbc', cipherKey, iv);
  const ciphertext = Buffer.concat([aes.update(plain), aes.final()]);
  const mac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, 10);
  const enc = Buffer.concat([ciphertext, mac]);
  return {
    mediaKey,
    enc,
    fileSha256: createHash('sha256').update(plain).digest(),
    fileEncSha256: createHash('sha256').update(enc).digest(),
    fileLength: plain.length,
  };
}

/**
 * Decrypts a blob as a WhatsApp client must: checks the MAC and the encrypted file's hash before decrypting, and
 * the plaintext hash after. Throws on any mismatch.
 */
export async function decryptMedia(
  enc: Buffer,
  type: MediaType,
  media: { mediaKey?: Uint8Array | null; fileEncSha256?: Uint8Array | null; fileSha256?: Uint8Array | null },
): Promise<Buffer> {
  if (!media.mediaKey) throw new Error('media without a media key');
  const { cipherKey, iv, macKey = new Uint8Array() } = await getMediaKeys(media.mediaKey, type);
  if (media.fileEncSha256 && !createHash('sha256').update(enc).digest().equals(Buffer.from(media.fileEncSha256))) {
    throw new Error('encrypted media hash mismatch');
  }
  const ciphertext = enc.subarray(0, enc.length - 10);
  const mac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, 10);
  if (!mac.equals(enc.subarray(enc.length - 10))) throw new Error('media MAC mismatch');
  const aes = createDecipheriv('aes-256-cbc', cipherKey, iv);
  const plain = Buffer.concat([aes.update(ciphertext), aes.final()]);
  if (media.fileSha256 && !createHash('sha256').update(plain).digest().equals(Buffer.from(media.fileSha256))) {
    throw new Error('media hash mismatch');
  }
  return plain;
}
