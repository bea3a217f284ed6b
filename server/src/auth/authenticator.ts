import type { RequestSession, SessionUser } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { InvalidationBus } from '../tenancy/invalidation';
import type { CompanyState, SessionStore } from '../tenancy/session-store';
import type { TokenService } from './tokens';

/** Why a token was refused, as the status and code to answer with. */
export interface AuthFailure {
  ok: false;
  status: number;
  error: string;
  extra?: Record<string, unknown>;
}

/** A caller who passed authentication. */
export interface Authenticated {
  ok: true;
  session: RequestSession;
  user: SessionUser;
  company: CompanyState;
  /** True when the company's subscription is past its due date (routes decide whether that matters). */
  expired: boolean;
  /** The session family of the token (refresh-token rotation chain), to end live sockets with it. */
  familyId: string;
}

/** Whether a session's company is past its due date by the server's calendar (the super user's never is). */
export function isExpired(user: { super: boolean }, company: { dueDate: string }): boolean {
  return !user.super && company.dueDate < today();
}

/**
 * Today's date as YYYY-MM-DD in the server's time zone (due dates are calendar days). Every request asks;
 * the text is kept until the next local midnight (a local date costs a time-zone lookup, ~1.4 % of the
 * server's CPU on `GET /auth/me`, profiled).
 */
export function today(): string {
  const now = Date.now();
  if (now >= todayCache.from && now < todayCache.until) return todayCache.text;
  const date = new Date(now);
  todayCache.text = `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
  todayCache.from = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  todayCache.until = new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
  return todayCache.text;
}

/** The day `today` last computed, as the local midnights it runs from and until. */
const todayCache = { text: '', from: 0, until: 0 };

/** At module level: a closure made per call costs the bundle a naming call (esbuild keepNames). */
const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * Turns an access token into a session, for HTTP and sockets alike: the token must be valid, its
 * session family not revoked, the user still in that company, and the company active.
 */
export class Authenticator {
  private readonly revokedFamilies = new Map<string, number>();

  constructor(
    private readonly tokens: TokenService,
    private readonly sessions: SessionStore,
    bus: InvalidationBus,
  ) {
    bus.onInvalidate((message) => {
      if (message.kind === 'family') this.revokedFamilies.set(message.id, message.until);
    });
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [family, until] of this.revokedFamilies) if (until < now) this.revokedFamilies.delete(family);
    }, 60_000);
    sweep.unref();
  }

  /** Loads families revoked recently by other processes, so their access tokens are refused here too. */
  async loadRevoked(knex: Knex): Promise<void> {
    const horizon = new Date(Date.now() - this.tokens.accessTtlSeconds * 1000);
    const rows: Array<{ familyId: string }> = await knex('refreshTokens').distinct('familyId').where('revokedAt', '>', horizon);
    const until = Date.now() + this.tokens.accessTtlSeconds * 1000;
    for (const row of rows) this.revokedFamilies.set(row.familyId, until);
  }

  async authenticate(token: string | undefined): Promise<Authenticated | AuthFailure> {
    const claims = this.tokens.readAccessToken(token);
    if (claims === 'missing') return { ok: false, status: 401, error: 'ERR_UNAUTHENTICATED' };
    // docs/product/tickets-and-inbox.md#states-and-transitions: a 403 makes the client refresh its token; a 401 ends the session. A token that is not
    // ours (forged, signed with another key, garbled) is no session to refresh.
    if (claims === 'expired') return { ok: false, status: 403, error: 'ERR_TOKEN_EXPIRED' };
    if (claims === 'invalid') return { ok: false, status: 401, error: 'ERR_TOKEN_INVALID' };
    return this.check(claims);
  }

  /**
   * The state of a session now, for a caller authenticated earlier (a live socket): the same rules as
   * `authenticate` but the token's own expiry, after the user, the company or the family changed.
   */
  async check(claims: { userId: number; companyId: number; familyId: string }): Promise<Authenticated | AuthFailure> {
    if (this.revokedFamilies.has(claims.familyId)) return { ok: false, status: 401, error: 'ERR_SESSION_EXPIRED' };
    const user = await this.sessions.user(claims.userId, claims.companyId);
    if (!user) return { ok: false, status: 401, error: 'ERR_SESSION_EXPIRED' };
    const company = await this.sessions.company(claims.companyId);
    if (!company) return { ok: false, status: 401, error: 'ERR_SESSION_EXPIRED' };
    if (!company.status && !user.super) return { ok: false, status: 403, error: 'ERR_COMPANY_INACTIVE' };
    return {
      ok: true,
      session: { userId: user.id, companyId: company.id, profile: user.profile, super: user.super },
      user,
      company,
      expired: isExpired(user, company),
      familyId: claims.familyId,
    };
  }
}
