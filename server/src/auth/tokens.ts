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

/**
 * Short-lived access tokens (HS256 JWT, bearer) and opaque refresh token secrets. Verification is
 * cached by fast-jwt, so a hot token costs a map lookup.
 */
export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verify: (token: string) => Record<string, unknown>;

  constructor(
    secret: string,
    readonly accessTtlSeconds: number,
  ) {
    this.sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: accessTtlSeconds * 1000 });
    this.verify = createVerifier({ key: secret, algorithms: ['HS256'], cache: 10_000, cacheTTL: 60_000 });
  }

  issueAccessToken(claims: AccessClaims): string {
    return this.sign({ sub: String(claims.userId), cid: claims.companyId, fam: claims.familyId });
  }

  /** The claims of a valid token, or why it is refused. */
  readAccessToken(token: string | undefined): AccessClaims | TokenProblem {
    if (!token) return 'missing';
    try {
      const payload = this.verify(token);
      const userId = Number(payload.sub);
      const companyId = payload.cid;
      const familyId = payload.fam;
      if (!Number.isInteger(userId) || typeof companyId !== 'number' || typeof familyId !== 'string') return 'invalid';
      return { userId, companyId, familyId };
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
