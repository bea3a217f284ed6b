import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed media address grants: one file of one company, until it expires. */
export interface MediaGrant {
  companyId: number;
  key: string;
  /** Expiry, in ms since the epoch. */
  expiresAt: number;
  /** The name the download is offered under. */
  fileName?: string;
}

/** A day: long enough for a working session, short enough that a leaked link dies. */
export const MEDIA_URL_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Signs and checks media addresses. `<img src>` can't carry the bearer token, so the API hands out
 * addresses signed with the server's secret, only to users of the company that owns the file; the token
 * names the company and the key, so it can't be turned to another company's file.
 */
export class MediaSigner {
  private readonly secret: Buffer;

  constructor(secret: string) {
    this.secret = Buffer.from(`media:${secret}`);
  }

  sign(grant: MediaGrant): string {
    const payload = Buffer.from(
      JSON.stringify({ c: grant.companyId, k: grant.key, e: grant.expiresAt, n: grant.fileName ?? null }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The grant of a token, or null when it is forged, malformed or expired. */
  verify(token: string, now = Date.now()): MediaGrant | null {
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (typeof data.c !== 'number' || typeof data.k !== 'string' || typeof data.e !== 'number') return null;
      if (data.e < now) return null;
      return {
        companyId: data.c,
        key: data.k,
        expiresAt: data.e,
        fileName: typeof data.n === 'string' ? data.n : undefined,
      };
    } catch {
      return null;
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
