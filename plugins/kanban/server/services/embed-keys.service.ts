import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, normalizeOrigin, type PluginContext } from '@balcao/plugin-sdk/server';
import { EmbedKey } from '../models/embed-key';
import { Lane } from '../models/lane';
import { keyRevoked } from './live';

/** A signed-user token may live at most this long (the embedding site mints one per page view). */
export const USER_TOKEN_MAX_LIFE_S = 3_600;
/** The public key's shape: `kbk_` and 32 url-safe characters. */
export const EMBED_KEY_PATTERN = '^kbk_[A-Za-z0-9_-]{32}$';

import type { EmbedKeyJson } from '../../shared/embed-key';

export type { EmbedKeyJson };

export interface EmbedKeyInput {
  name: string;
  allowedOrigins: string[];
  mayMove: boolean;
  signedUsers: boolean;
  laneIds: number[] | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function embedKeyJson(row: EmbedKey): EmbedKeyJson {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    secret: row.secret,
    allowedOrigins: row.allowedOrigins,
    mayMove: row.mayMove,
    signedUsers: row.signedUsers,
    laneIds: row.laneIds,
    revoked: row.revokedAt !== null,
    revokedAt: iso(row.revokedAt),
    lastUsedAt: iso(row.lastUsedAt),
    createdAt: iso(row.createdAt) as string,
  };
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

function validate(input: EmbedKeyInput) {
  const name = input.name.trim();
  if (name.length < 3) throw invalid('name', 'must have at least 3 characters');
  const origins: string[] = [];
  for (const origin of input.allowedOrigins) {
    const normalized = normalizeOrigin(origin);
    if (!normalized) throw invalid('allowedOrigins', `${JSON.stringify(origin)} is not an origin like https://site.example`);
    if (!origins.includes(normalized)) origins.push(normalized);
  }
  return { name, origins };
}

function invalid(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', { details: [{ field: `body.${field}`, message }] });
}

/** Refuses lane ids that aren't the company's lanes. */
async function requireLanes(laneIds: number[] | null): Promise<number[] | null> {
  if (laneIds === null) return null;
  const unique = [...new Set(laneIds)];
  const found = await Lane.lanes().whereIn('id', unique).select('id');
  if (found.length !== unique.length) throw invalid('laneIds', 'must be kanban lanes of the company');
  return unique;
}

export async function listEmbedKeys(): Promise<EmbedKeyJson[]> {
  return (
    await EmbedKey.query().orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
  ).map(embedKeyJson);
}

export async function findEmbedKey(id: number): Promise<EmbedKey> {
  const key = await EmbedKey.query().findById(id);
  if (!key) throw new AppError('ERR_NO_EMBED_KEY_FOUND');
  return key;
}

export async function createEmbedKey(input: EmbedKeyInput): Promise<EmbedKeyJson> {
  const { name, origins } = validate(input);
  const laneIds = await requireLanes(input.laneIds);
  const row = await EmbedKey.query().insertAndFetch({
    name,
    key: `kbk_${token(24)}`,
    secret: token(32),
    allowedOrigins: origins,
    mayMove: input.mayMove,
    signedUsers: input.signedUsers,
    laneIds,
  });
  return embedKeyJson(row);
}

export async function updateEmbedKey(id: number, input: EmbedKeyInput): Promise<EmbedKeyJson> {
  await findEmbedKey(id);
  const { name, origins } = validate(input);
  const laneIds = await requireLanes(input.laneIds);
  const row = await EmbedKey.query().patchAndFetchById(id, {
    name,
    allowedOrigins: origins,
    mayMove: input.mayMove,
    signedUsers: input.signedUsers,
    laneIds,
    updatedAt: new Date(),
  });
  return embedKeyJson(row);
}

/** Revokes a key for good: the widget that uses it stops at its next call and its streams close. */
export async function revokeEmbedKey(id: number): Promise<EmbedKeyJson> {
  const key = await findEmbedKey(id);
  if (key.revokedAt) return embedKeyJson(key);
  const revoked = await EmbedKey.query().patchAndFetchById(id, { revokedAt: new Date(), updatedAt: new Date() });
  keyRevoked(id);
  return embedKeyJson(revoked);
}

/** A new signing secret: user tokens signed with the old one stop working at once. */
export async function rotateEmbedSecret(id: number): Promise<EmbedKeyJson> {
  await findEmbedKey(id);
  return embedKeyJson(await EmbedKey.query().patchAndFetchById(id, { secret: token(32), updatedAt: new Date() }));
}

export async function deleteEmbedKey(id: number): Promise<void> {
  await findEmbedKey(id);
  await EmbedKey.query().deleteById(id);
}

/**
 * The key behind a public call, found by its public value across companies (the call has no session:
 * the key is what names the company). Unknown: 404; revoked: 403.
 */
export async function resolvePublicKey(ctx: PluginContext, publicKey: string): Promise<EmbedKey> {
  const row = await EmbedKey.query().crossTenant().findOne({ key: publicKey });
  if (!row) throw new AppError('ERR_NO_EMBED_KEY_FOUND');
  if (row.revokedAt) throw new AppError('ERR_EMBED_KEY_REVOKED');
  await ctx.plans.require(row.companyId, 'useKanban');
  return row;
}

/** The caller's `Origin` must be one the key allows (browsers always send it on cross-origin calls). */
export function requireAllowedOrigin(key: Pick<EmbedKey, 'allowedOrigins'>, origin: string | undefined): string {
  const normalized = origin ? normalizeOrigin(origin) : null;
  if (!normalized || !key.allowedOrigins.includes(normalized)) throw new AppError('ERR_EMBED_ORIGIN_REFUSED');
  return normalized;
}

/** Who a signed-user token names. */
export interface EmbedActor {
  sub: string;
  name: string;
  email: string | null;
}

/**
 * Signs a user token the way the embedding site does (docs/kanban.md "Signed users"):
 * `base64url(JSON payload) + "." + base64url(HMAC-SHA256(secret, first part))`, payload
 * `{ sub, name, email?, exp }` with `exp` in Unix seconds.
 */
export function signUserToken(secret: string, payload: { sub: string; name: string; email?: string; exp: number }): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** Verifies a signed-user token: the signature, an expiry in the future and at most an hour away. */
export function verifyUserToken(secret: string, text: string, nowMs = Date.now()): EmbedActor {
  const [body, signature, extra] = text.split('.');
  if (!body || !signature || extra !== undefined) throw new AppError('ERR_EMBED_USER_TOKEN_INVALID');
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('ERR_EMBED_USER_TOKEN_INVALID');
  let payload: { sub?: unknown; name?: unknown; email?: unknown; exp?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('ERR_EMBED_USER_TOKEN_INVALID');
  }
  const { sub, name, email, exp } = payload;
  if (typeof sub !== 'string' || !sub || sub.length > 200 || typeof name !== 'string' || !name || name.length > 200) {
    throw new AppError('ERR_EMBED_USER_TOKEN_INVALID');
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new AppError('ERR_EMBED_USER_TOKEN_INVALID');
  const nowS = nowMs / 1000;
  if (exp <= nowS) throw new AppError('ERR_EMBED_USER_TOKEN_EXPIRED');
  if (exp - nowS > USER_TOKEN_MAX_LIFE_S) throw new AppError('ERR_EMBED_USER_TOKEN_INVALID');
  return { sub, name, email: typeof email === 'string' && email.length <= 255 ? email.toLowerCase() : null };
}

/**
 * Calls per key and client address per minute, counted in this process (a fixed window): the widget
 * reads the board once and then follows the stream, so these leave room for reloads, not for scraping.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.prune(now);
      this.windows.set(key, { start: now, count: 1 });
      return;
    }
    window.count += 1;
    if (window.count > this.limit) throw new AppError('ERR_RATE_LIMITED');
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}
