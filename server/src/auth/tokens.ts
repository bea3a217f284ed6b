import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';

/** What an access token carries: who, for which company, in which session family. */
export interface AccessClaims {
  userId: number;
  companyId: number;
  familyId: string;
}

/** Why an access token was refused. */
export type TokenProblem = 'missing' | 'invalid' | 'expired';

/** How many verified access tokens `TokenService` remembers (the oldest is forgotten first). */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Short-lived access tokens (HS256 JWT, bearer) and opaque refresh token secrets. A token verified once is
 * remembered with its claims until it expires, so a hot token costs a map lookup: every request presents
 * one, and fast-jwt's own cache keys its entries by a SHA-256 of the token — ~4 % of the server's CPU on
 * `GET /auth/me` (profiled), where a lookup by the token itself costs next to nothing. The same text always
 * verifies to the same claims; revoked sessions are refused after this (`Authenticator`).
 */
export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verify: (token: string) => Record<string, unknown>;
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  constructor(
    secret: string,
    readonly accessTtlSeconds: number,
  ) {
    this.sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: accessTtlSeconds * 1000 });
    this.verify = createVerifier({ key: secret, algorithms: ['HS256'] });
  }

  issueAccessToken(claims: AccessClaims): string {
    return this.sign({ sub: String(claims.userId), cid: claims.companyId, fam: claims.familyId });
  }

  /** The claims of a valid token, or why it is refused. */
  readAccessToken(token: string | undefined): AccessClaims | TokenProblem {
    if (!token) return 'missing';
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAt) return known.claims;
      this.verified.delete(token);
      return 'expired';
    }
    try {
      const payload = this.verify(token);
      const userId = Number(payload.sub);
      const companyId = payload.cid;
      const familyId = payload.fam;
      if (!Number.isInteger(userId) || typeof companyId !== 'number' || typeof familyId !== 'string') return 'invalid';
      const claims = Object.freeze({ userId, companyId, familyId });
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value as string);
        this.verified.set(token, { claims, expiresAt: payload.exp * 1000 });
      }
      return claims;
    } catch (error) {
      if (error instanceof TokenError && error.code === TokenError.codes.expired) return 'expired';
      return 'invalid';
    }
  }
}

/** A new refresh token: the cookie value (`id.secret`) and what the database keeps (id, hash). */
export function newRefreshToken(): { id: string; cookie: string; hash: string } {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, cookie: `${id}.${secret}`, hash: hashSecret(secret) };
}

/** Splits a refresh cookie into its id and secret, or null when it isn't one of ours. */
export function parseRefreshCookie(value: string | undefined): { id: string; secret: string } | null {
  if (!value) return null;
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  return match?.[1] && match[2] ? { id: match[1], secret: match[2] } : null;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
