import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKeyInfo, type ApiKeyScope, AppError } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { InvalidationBus } from '../tenancy/invalidation';
import type { SessionStore } from '../tenancy/session-store';
import { TtlCache } from '../tenancy/ttl-cache';
import type { Authenticated, AuthFailure } from './authenticator';
import { today } from './authenticator';

/** A key as authentication reads it (cached per process, dropped everywhere when it is revoked). */
interface KeyRow {
  id: number;
  companyId: number;
  secretHash: string;
  scopes: ApiKeyScope[];
  createdBy: number | null;
  revoked: boolean;
}

/** An authenticated API key: the session of the admin it acts as, and its scopes. */
export interface KeyAuthenticated extends Authenticated {
  apiKey: { id: number; scopes: readonly ApiKeyScope[] };
}

/** `blc_<id>_<secret>`: the id finds the row, the secret (32 base62-ish characters) proves the holder. */
const KEY_FORMAT = /^blc_([1-9][0-9]{0,9})_([A-Za-z0-9_-]{32})$/;

/** How often a key's `lastUsedAt` is written at most (a busy key would otherwise write on every call). */
const LAST_USED_EVERY_MS = 60_000;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Whether a bearer token is an API key rather than a session's access token. */
export function isApiKeyToken(token: string | undefined): token is string {
  return token?.startsWith(API_KEY_PREFIX) === true;
}

/**
 * API keys (docs/api.md "API keys", docs/architecture.md "API keys"): created by a company admin with a
 * name and scopes, the secret shown once; a key authenticates as the admin who created it, limited to
 * the routes that declare one of its scopes. It has no session family and no refresh token: using one
 * never touches a person's session.
 */
export class ApiKeyService {
  private readonly keys = new TtlCache<number, KeyRow | null>(30_000);
  private readonly lastUsedWritten = new Map<number, number>();

  constructor(
    private readonly knex: Knex,
    private readonly sessions: SessionStore,
    private readonly bus: InvalidationBus,
  ) {
    bus.onInvalidate((message) => {
      if (message.kind === 'apiKey') this.keys.delete(message.id);
    });
  }

  async create(
    companyId: number,
    createdBy: number,
    input: { name: string; scopes: ApiKeyScope[] },
  ): Promise<{ key: string; apiKey: ApiKeyInfo }> {
    const secret = randomBytes(24).toString('base64url');
    const scopes = [...new Set(input.scopes)];
    const [row] = await this.knex('apiKeys')
      .insert({ companyId, name: input.name.trim(), scopes, secretHash: sha256(secret), hint: '', createdBy })
      .returning('id');
    const id = row.id as number;
    const key = `${API_KEY_PREFIX}${id}_${secret}`;
    await this.knex('apiKeys')
      .where({ id })
      .update({ hint: `${key.slice(0, API_KEY_PREFIX.length + String(id).length + 4)}…` });
    return { key, apiKey: (await this.list(companyId, id))[0] as ApiKeyInfo };
  }

  /** The company's keys, newest first (or the one `id`). */
  async list(companyId: number, id?: number): Promise<ApiKeyInfo[]> {
    const query = this.knex('apiKeys')
      .leftJoin('users', 'users.id', 'apiKeys.createdBy')
      .where('apiKeys.companyId', companyId)
      .orderBy('apiKeys.id', 'desc')
      .select(
        'apiKeys.id',
        'apiKeys.name',
        'apiKeys.scopes',
        'apiKeys.hint',
        'apiKeys.createdAt',
        'apiKeys.lastUsedAt',
        'apiKeys.revokedAt',
        'users.id as userId',
        'users.name as userName',
      );
    if (id !== undefined) query.andWhere('apiKeys.id', id);
    const rows = (await query) as Array<{
      id: number;
      name: string;
      scopes: ApiKeyScope[];
      hint: string;
      createdAt: Date;
      lastUsedAt: Date | null;
      revokedAt: Date | null;
      userId: number | null;
      userName: string | null;
    }>;
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      scopes: row.scopes,
      hint: row.hint,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.userId === null ? null : { id: row.userId, name: row.userName ?? '' },
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
    }));
  }

  /** Revokes a key of the company at once, on every process; revoking a revoked key changes nothing. */
  async revoke(companyId: number, id: number): Promise<ApiKeyInfo> {
    const found = await this.knex('apiKeys').where({ companyId, id }).first('id');
    if (!found) throw new AppError('ERR_NO_API_KEY_FOUND');
    await this.knex('apiKeys').where({ companyId, id }).whereNull('revokedAt').update({ revokedAt: this.knex.fn.now() });
    await this.bus.publish({ kind: 'apiKey', id });
    return (await this.list(companyId, id))[0] as ApiKeyInfo;
  }

  /** Checks a key: its secret, not revoked, its creator still an admin of the company, the company active. */
  async authenticate(token: string): Promise<KeyAuthenticated | AuthFailure> {
    const match = KEY_FORMAT.exec(token);
    if (!match) return { ok: false, status: 401, error: 'ERR_API_KEY_INVALID' };
    const id = Number(match[1]);
    const row = await this.keys.get(id, () => this.load(id));
    const presented = Buffer.from(sha256(match[2] as string), 'hex');
    if (!row || !timingSafeEqual(presented, Buffer.from(row.secretHash, 'hex'))) {
      return { ok: false, status: 401, error: 'ERR_API_KEY_INVALID' };
    }
    if (row.revoked) return { ok: false, status: 401, error: 'ERR_API_KEY_REVOKED' };
    if (row.createdBy === null) return { ok: false, status: 401, error: 'ERR_API_KEY_INVALID' };
    const [user, company] = await Promise.all([
      this.sessions.user(row.createdBy, row.companyId),
      this.sessions.company(row.companyId),
    ]);
    // the key acts as its admin: one no longer admin (or gone) makes it invalid, as a deleted one does
    if (!user || !company || user.profile !== 'admin') return { ok: false, status: 401, error: 'ERR_API_KEY_INVALID' };
    // a key never carries super-user powers, so a super user's key stops with its inactive company too
    if (!company.status) return { ok: false, status: 403, error: 'ERR_COMPANY_INACTIVE' };
    this.touch(id);
    return {
      ok: true,
      session: { userId: user.id, companyId: company.id, profile: user.profile, super: false, apiKeyId: id },
      // a key never carries super-user powers, whoever created it
      user: { ...user, super: false },
      company,
      expired: company.dueDate < today(),
      familyId: `api-key:${id}`,
      apiKey: { id, scopes: row.scopes },
    };
  }

  private async load(id: number): Promise<KeyRow | null> {
    const row = await this.knex('apiKeys')
      .where({ id })
      .first('id', 'companyId', 'secretHash', 'scopes', 'createdBy', 'revokedAt');
    if (!row) return null;
    return {
      id: row.id,
      companyId: row.companyId,
      secretHash: row.secretHash,
      scopes: row.scopes,
      createdBy: row.createdBy,
      revoked: row.revokedAt !== null,
    };
  }

  /** Records the key's use, at most once a minute per process (best effort: a failed write is no failed call). */
  private touch(id: number): void {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastUsedWritten.set(id, now);
    this.knex('apiKeys')
      .where({ id })
      .update({ lastUsedAt: this.knex.fn.now() })
      .catch(() => {});
  }
}
