import { randomUUID } from 'node:crypto';
import { AppError, companyEvent, ROOMS, type SessionUser } from '@balcao/plugin-sdk/server';
import type { CoreServices } from '../core-services';
import { createTenancyService } from '../tenancy/company-creator';
import { isExpired } from './authenticator';
import { decoyHash, verifyPassword } from './passwords';
import { hashSecret, newRefreshToken, parseRefreshCookie, sameHash } from './tokens';

/** A used refresh token presented again within this window is a race between tabs, not a theft. */
const REUSE_GRACE_MS = 10_000;
/** Server-side life of a refresh token when the user did not ask to be remembered. */
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** What a successful login or refresh produces. */
export interface IssuedSession {
  token: string;
  user: SessionUser;
  refreshCookie: string;
  /** Cookie max age in seconds, or undefined for a browser-session cookie. */
  cookieMaxAge: number | undefined;
}

/** Login, refresh rotation, logout and signup: the rules of docs/product/tickets-and-inbox.md#states-and-transitions and #calls-and-realtime-events Auth. */
export class AuthService {
  private decoy: Promise<string> | null = null;

  constructor(private readonly core: CoreServices) {}

  private get knex() {
    return this.core.knex;
  }

  async login(input: {
    email: string;
    password: string;
    remember?: boolean;
    ip: string;
    userAgent: string;
  }): Promise<IssuedSession> {
    const { throttle, config } = this.core;
    const email = input.email.trim().toLowerCase();
    const ipWait = await throttle.hitIp(input.ip);
    if (ipWait > 0) throw new AppError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: ipWait });
    // counted (as a failure) before the slow hash, so concurrent guesses can't all slip past the limit
    const accountWait = await throttle.hitAccount(email);
    if (accountWait > 0) throw new AppError('ERR_TOO_MANY_ATTEMPTS', { retryAfter: accountWait });

    const row = await this.knex('users').whereRaw('lower(email) = ?', [email]).first('id', 'companyId', 'passwordHash', 'super');
    if (!row) {
      this.decoy ??= decoyHash(config.passwordHashCost);
      await verifyPassword(input.password, await this.decoy);
      throw new AppError('ERR_INVALID_CREDENTIALS');
    }
    if (!(await verifyPassword(input.password, row.passwordHash))) throw new AppError('ERR_INVALID_CREDENTIALS');
    // the right password: this attempt was no failure, and neither were the ones before it
    await throttle.recordSuccess(email, input.ip);
    const company = await this.core.sessions.company(row.companyId);
    if (!company) throw new AppError('ERR_INVALID_CREDENTIALS');
    if (!company.status && !row.super) throw new AppError('ERR_COMPANY_INACTIVE');
    // An expired subscription still logs in: the session reaches only the routes marked allowExpired (the
    // pay screen, /auth/me, GET /plugins) and every other answers 402 (docs/product/administration.md#expired-subscription).

    // One session per user (docs/product/tickets-and-inbox.md#states-and-transitions session takeover): older sessions end now and are told why.
    await this.revokeUserSessions(row.id, 'takeover');
    this.core.realtime.emit(
      row.companyId,
      companyEvent(row.companyId, 'auth'),
      { action: 'update', user: { id: row.id } },
      {
        rooms: ROOMS.user(row.id),
      },
    );
    await this.knex('companies').where({ id: row.companyId }).update({ lastLogin: this.knex.fn.now() });

    const familyId = randomUUID();
    const persistent = input.remember === true;
    return this.issue(row.id, row.companyId, familyId, persistent);
  }

  async refresh(cookie: string | undefined): Promise<IssuedSession> {
    const parsed = parseRefreshCookie(cookie);
    if (!parsed) throw new AppError('ERR_SESSION_EXPIRED');
    const row = await this.knex('refreshTokens').where({ id: parsed.id }).first();
    if (!row || !sameHash(row.tokenHash, hashSecret(parsed.secret))) throw new AppError('ERR_SESSION_EXPIRED');
    if (row.revokedAt || new Date(row.expiresAt).getTime() < Date.now()) throw new AppError('ERR_SESSION_EXPIRED');
    // A rotated token back after the grace is theft, whatever the company's state: end the family before
    // anything else can refuse the request and leave the thief's copy of the family alive.
    if (row.usedAt && Date.now() - new Date(row.usedAt).getTime() > REUSE_GRACE_MS) {
      await this.revokeFamily(row.familyId);
      throw new AppError('ERR_SESSION_EXPIRED');
    }
    // The company is checked before the token is spent: a refusal (expired subscription, inactive
    // company) leaves the cookie valid, so the same session resumes once the company is renewed.
    const company = await this.core.sessions.company(row.companyId);
    const user = await this.core.sessions.user(row.userId, row.companyId);
    if (!company || !user) throw new AppError('ERR_SESSION_EXPIRED');
    if (!company.status && !user.super) throw new AppError('ERR_COMPANY_INACTIVE');

    const claimed = await this.knex('refreshTokens')
      .where({ id: row.id })
      .whereNull('usedAt')
      .update({ usedAt: this.knex.fn.now() });
    if (claimed === 0) {
      const fresh = await this.knex('refreshTokens').where({ id: row.id }).first('usedAt', 'revokedAt');
      const usedAgo = fresh?.usedAt ? Date.now() - new Date(fresh.usedAt).getTime() : Number.POSITIVE_INFINITY;
      if (fresh?.revokedAt || usedAgo > REUSE_GRACE_MS) {
        // A rotated token came back: someone holds a stolen copy. End the whole family.
        await this.revokeFamily(row.familyId);
        throw new AppError('ERR_SESSION_EXPIRED');
      }
    }
    // a browser-session login lives at most SESSION_TTL_MS from the login, however often it rotates
    const expiresAt = row.persistent ? undefined : new Date(row.expiresAt);
    return this.issue(row.userId, row.companyId, row.familyId, row.persistent, expiresAt);
  }

  /** Ends the session of a refresh cookie and/or of an access token's family. */
  async logout(cookie: string | undefined, familyId: string | undefined, userId: number | undefined): Promise<void> {
    const parsed = parseRefreshCookie(cookie);
    const families = new Set<string>();
    if (familyId) families.add(familyId);
    if (parsed) {
      const row = await this.knex('refreshTokens').where({ id: parsed.id }).first('familyId', 'tokenHash');
      if (row && sameHash(row.tokenHash, hashSecret(parsed.secret))) families.add(row.familyId);
    }
    for (const family of families) await this.revokeFamily(family);
    if (userId) await this.knex('users').where({ id: userId }).update({ online: false });
  }

  async signup(input: {
    name: string;
    email: string;
    password: string;
    phone: string;
    companyName: string;
    planId: number;
  }): Promise<{ companyId: number; userId: number; dueDate: string }> {
    const platform = await this.core.sessions.company(1);
    if (platform?.settings.allowSignup !== 'enabled') throw new AppError('ERR_SIGNUP_DISABLED');
    const email = input.email.trim().toLowerCase();
    const plan = await this.knex('plans').where({ id: input.planId }).first('id', 'isPublic', 'amount');
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
    if (!plan.isPublic) throw new AppError('ERR_PLAN_NOT_PUBLIC');
    const due = new Date();
    due.setDate(due.getDate() + this.core.config.trialDays);
    // a calendar day of the server's zone, like today() that expiry is checked against (not UTC's)
    const pad = (n: number) => String(n).padStart(2, '0');
    const dueDate = `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}`;
    // the same steps as the super user's POST /companies: company, its admin, default settings
    const { companyId, userId } = await createTenancyService(this.knex, this.core.config.passwordHashCost).createCompany({
      name: input.companyName.trim(),
      email,
      phone: input.phone.trim(),
      planId: plan.id,
      status: true,
      dueDate,
      recurrence: 'MENSAL',
      value: plan.amount,
      admin: { name: input.name, email, password: input.password },
    });
    return { companyId, userId, dueDate };
  }

  /** Revokes every live session of a user (takeover, password change, deletion). */
  async revokeUserSessions(userId: number, _reason: string): Promise<void> {
    const families: Array<{ familyId: string }> = await this.knex('refreshTokens')
      .distinct('familyId')
      .where({ userId })
      .whereNull('revokedAt')
      .where('expiresAt', '>', new Date());
    for (const { familyId } of families) await this.revokeFamily(familyId);
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.knex('refreshTokens').where({ familyId }).whereNull('revokedAt').update({ revokedAt: this.knex.fn.now() });
    await this.core.invalidation.publish({
      kind: 'family',
      id: familyId,
      until: Date.now() + this.core.config.accessTokenTtlSeconds * 1000,
    });
  }

  private async issue(
    userId: number,
    companyId: number,
    familyId: string,
    persistent: boolean,
    expiresAt?: Date,
  ): Promise<IssuedSession> {
    const { config } = this.core;
    const refresh = newRefreshToken();
    const ttlMs = persistent ? config.refreshTokenTtlDays * 86_400_000 : SESSION_TTL_MS;
    await this.knex('refreshTokens').insert({
      id: refresh.id,
      familyId,
      userId,
      companyId,
      tokenHash: refresh.hash,
      persistent,
      expiresAt: expiresAt ?? new Date(Date.now() + ttlMs),
    });
    await this.core.sessions.invalidateUser(userId);
    const user = await this.core.sessions.user(userId, companyId);
    const company = await this.core.sessions.company(companyId);
    if (!user || !company) throw new AppError('ERR_SESSION_EXPIRED');
    return {
      token: this.core.tokens.issueAccessToken({ userId, companyId, familyId }),
      // the browser shows the pay screen by this, not by its own clock (its day may not be the server's)
      user: { ...user, expired: isExpired(user, company) },
      refreshCookie: refresh.cookie,
      cookieMaxAge: persistent ? Math.floor(ttlMs / 1000) : undefined,
    };
  }
}
