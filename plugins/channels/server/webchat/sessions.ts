import { createHash, randomBytes } from 'node:crypto';
import { AppError, type FastifyRequest, type PluginContext } from '@balcao/plugin-sdk/server';
import { createVerifier, TokenError } from 'fast-jwt';
import type { WebchatSessionRequest, WebchatVisitor } from '../../shared/webchat';
import { HOUR_MS, hitLimit } from './limits';
import type { WidgetConnection } from './widgets';

/** A session lives this long after its last use (sliding), unless revoked. */
export const SESSION_LIFE_MS = 90 * 86_400_000;
/** The expiry is pushed forward at most this often (not a write per request). */
const SLIDE_EVERY_MS = 86_400_000;
/** An identity token may expire at most this far ahead (the site mints short-lived ones). */
export const IDENTITY_MAX_AHEAD_S = 24 * 3_600;
/** The session token's shape: `wcs_` and 43 url-safe characters. */
export const SESSION_TOKEN_PATTERN = '^wcs_[A-Za-z0-9_-]{43}$';
const SESSION_TOKEN_RE = new RegExp(SESSION_TOKEN_PATTERN);
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_RE = /^\+?[0-9 ().-]{6,30}$/;
const LOCALES = ['pt', 'en', 'es', 'tr'];

/** A visitor row (`webchatVisitors`). */
export interface VisitorRow {
  id: number;
  companyId: number;
  whatsappId: number;
  publicId: string;
  externalId: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  locale: string | null;
  contactId: number | null;
}

/** The caller of a widget request: one visitor of one connection. */
export interface WidgetSession {
  sessionId: number;
  visitor: VisitorRow;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The inbox contact identifier of a visitor: per site user for identified ones, else per visitor. */
export function contactIdentifier(visitor: Pick<VisitorRow, 'whatsappId' | 'publicId' | 'externalId'>): string {
  return visitor.externalId !== null ? `webchat-user:${visitor.whatsappId}:${visitor.externalId}` : `webchat:${visitor.publicId}`;
}

export function visitorJson(visitor: VisitorRow): WebchatVisitor {
  return { name: visitor.name, email: visitor.email, phone: visitor.phone, identified: visitor.externalId !== null };
}

/** The bearer token of a widget request (`Authorization: Bearer …`), or `?sessionToken=` on the event stream. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The session a token names on this connection; 401 ERR_WEBCHAT_SESSION_INVALID otherwise. */
export async function requireSession(
  ctx: PluginContext,
  widget: WidgetConnection,
  token: string | null | undefined,
): Promise<WidgetSession> {
  const session = token ? await findSession(ctx, widget, token) : null;
  if (!session) throw new AppError('ERR_WEBCHAT_SESSION_INVALID');
  return session;
}

async function findSession(ctx: PluginContext, widget: WidgetConnection, token: string): Promise<WidgetSession | null> {
  if (!SESSION_TOKEN_RE.test(token)) return null;
  const { knex } = ctx.db;
  const row = await knex('webchatSessions as s')
    .join('webchatVisitors as v', 'v.id', 's.visitorId')
    .where({ 's.tokenHash': hashToken(token), 's.whatsappId': widget.id, 's.companyId': widget.companyId })
    .whereNull('s.revokedAt')
    .where('s.expiresAt', '>', knex.fn.now())
    .first(
      's.id as sessionId',
      's.expiresAt as expiresAt',
      'v.id',
      'v.companyId',
      'v.whatsappId',
      'v.publicId',
      'v.externalId',
      'v.name',
      'v.email',
      'v.phone',
      'v.locale',
      'v.contactId',
    );
  if (!row) return null;
  const { sessionId, expiresAt, ...visitor } = row as VisitorRow & { sessionId: number; expiresAt: Date };
  if (new Date(expiresAt).getTime() - Date.now() < SESSION_LIFE_MS - SLIDE_EVERY_MS) {
    await knex('webchatSessions')
      .where({ id: sessionId })
      .update({ expiresAt: new Date(Date.now() + SESSION_LIFE_MS), lastUsedAt: new Date() });
  }
  return { sessionId: Number(sessionId), visitor: visitor as VisitorRow };
}

/** The claims of a valid identity token. */
interface Identity {
  sub: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

const claimText = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() && value.length <= max ? value.trim() : null;

/**
 * Verifies an identity token the site signed: HS256 with the connection's identity secret, `sub` and
 * `exp` required, `exp` at most 24 h ahead. Forged or malformed: ERR_WEBCHAT_IDENTITY_INVALID; expired:
 * ERR_WEBCHAT_IDENTITY_EXPIRED.
 */
export function verifyIdentity(secret: string, token: string, nowMs = Date.now()): Identity {
  const verify = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    requiredClaims: ['sub', 'exp'],
    clockTimestamp: nowMs,
    cache: false,
  });
  let claims: Record<string, unknown>;
  try {
    claims = verify(token) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TokenError && error.code === TokenError.codes.expired)
      throw new AppError('ERR_WEBCHAT_IDENTITY_EXPIRED');
    throw new AppError('ERR_WEBCHAT_IDENTITY_INVALID');
  }
  const sub = typeof claims.sub === 'string' || typeof claims.sub === 'number' ? String(claims.sub) : '';
  if (!sub || sub.length > 200) throw new AppError('ERR_WEBCHAT_IDENTITY_INVALID');
  if (typeof claims.exp !== 'number' || claims.exp - nowMs / 1000 > IDENTITY_MAX_AHEAD_S)
    throw new AppError('ERR_WEBCHAT_IDENTITY_INVALID');
  return {
    sub,
    name: claimText(claims.name, 120),
    email: claimText(claims.email, 255)?.toLowerCase() ?? null,
    phone: claimText(claims.phone, 40),
  };
}

function prechatValues(
  widget: WidgetConnection,
  body: WebchatSessionRequest,
  base: { name: string | null; email: string | null; phone: string | null },
) {
  const pick = (value: string | undefined, fallback: string | null) => (value?.trim() ? value.trim() : fallback);
  const values = {
    name: pick(body.name, base.name),
    email: pick(body.email, base.email)?.toLowerCase() ?? null,
    phone: pick(body.phone, base.phone),
  };
  if (values.email !== null && !EMAIL_RE.test(values.email)) {
    throw new AppError('ERR_WEBCHAT_INVALID_EMAIL', { details: [{ field: 'body.email', message: 'is not an e-mail address' }] });
  }
  if (values.phone !== null && !PHONE_RE.test(values.phone)) {
    throw new AppError('ERR_WEBCHAT_INVALID_PHONE', { details: [{ field: 'body.phone', message: 'is not a phone number' }] });
  }
  const missing = (['name', 'email', 'phone'] as const).filter(
    (field) => widget.config.prechat[field] === 'required' && !values[field],
  );
  if (missing.length > 0) {
    throw new AppError('ERR_WEBCHAT_PRECHAT_REQUIRED', {
      details: missing.map((field) => ({ field: `body.${field}`, message: 'is required' })),
    });
  }
  return values;
}

function localeOf(value: string | undefined): string | null {
  const base = value?.toLowerCase().split(/[-_]/)[0];
  return base && LOCALES.includes(base) ? base : null;
}

async function issueSession(ctx: PluginContext, widget: WidgetConnection, visitorId: number, ip: string): Promise<string> {
  const token = `wcs_${randomBytes(32).toString('base64url')}`;
  await ctx.db.knex('webchatSessions').insert({
    companyId: widget.companyId,
    whatsappId: widget.id,
    visitorId,
    tokenHash: hashToken(token),
    ip: ip.slice(0, 64),
    expiresAt: new Date(Date.now() + SESSION_LIFE_MS),
  });
  return token;
}

/**
 * `POST /webchat/:widgetKey/sessions`: resumes a valid session (the same visitor, the pre-chat fields it
 * brings saved), or makes the site user's visitor from an identity token, or a new anonymous visitor
 * (counted against the connection's new-conversations-per-IP limit).
 */
export async function openSession(
  ctx: PluginContext,
  widget: WidgetConnection,
  body: WebchatSessionRequest,
  ip: string,
): Promise<{ created: boolean; sessionToken: string; visitor: VisitorRow }> {
  const { knex } = ctx.db;
  const current = body.sessionToken ? await findSession(ctx, widget, body.sessionToken) : null;
  const identity = body.identity ? verifyIdentity(widget.config.identitySecret, body.identity) : null;
  const locale = localeOf(body.locale);

  if (identity) {
    const values = prechatValues(widget, body, identity);
    const found = (await knex('webchatVisitors')
      .where({ companyId: widget.companyId, whatsappId: widget.id, externalId: identity.sub })
      .first()) as VisitorRow | undefined;
    let visitor: VisitorRow;
    if (found) {
      // the site's claims are the truth about its user
      [visitor] = await knex('webchatVisitors')
        .where({ id: found.id })
        .update({ ...values, ...(locale ? { locale } : {}), updatedAt: new Date() })
        .returning('*');
    } else {
      await hitLimit(ctx, `ip:${widget.id}:${ip}`, widget.config.newConversationsPerIpPerHour, HOUR_MS);
      try {
        [visitor] = await knex('webchatVisitors')
          .insert({
            companyId: widget.companyId,
            whatsappId: widget.id,
            publicId: newPublicId(),
            externalId: identity.sub,
            ...values,
            locale,
          })
          .returning('*');
      } catch (error) {
        // the same site user opened a session on another device at the same moment: that visitor is theirs
        if ((error as { code?: string }).code !== '23505') throw error;
        visitor = await knex('webchatVisitors')
          .where({ companyId: widget.companyId, whatsappId: widget.id, externalId: identity.sub })
          .first();
      }
    }
    if (current && current.visitor.id === visitor.id)
      return { created: false, sessionToken: body.sessionToken as string, visitor };
    return { created: true, sessionToken: await issueSession(ctx, widget, visitor.id, ip), visitor };
  }

  if (current) {
    let visitor = current.visitor;
    const changes: Record<string, unknown> = {};
    if (visitor.externalId === null && (body.name || body.email || body.phone))
      Object.assign(changes, prechatValues(widget, body, visitor));
    if (locale && locale !== visitor.locale) changes.locale = locale;
    if (Object.keys(changes).length > 0) {
      [visitor] = await knex('webchatVisitors')
        .where({ id: visitor.id })
        .update({ ...changes, updatedAt: new Date() })
        .returning('*');
    }
    return { created: false, sessionToken: body.sessionToken as string, visitor };
  }

  const values = prechatValues(widget, body, { name: null, email: null, phone: null });
  await hitLimit(ctx, `ip:${widget.id}:${ip}`, widget.config.newConversationsPerIpPerHour, HOUR_MS);
  const [visitor] = await knex('webchatVisitors')
    .insert({ companyId: widget.companyId, whatsappId: widget.id, publicId: newPublicId(), externalId: null, ...values, locale })
    .returning('*');
  return { created: true, sessionToken: await issueSession(ctx, widget, visitor.id, ip), visitor };
}

const newPublicId = () => randomBytes(18).toString('base64url');

/** Ends every session of a connection (it was removed) and tells their open streams. */
export async function revokeConnectionSessions(ctx: PluginContext, companyId: number, connectionId: number): Promise<void> {
  await ctx.db
    .knex('webchatSessions')
    .where({ companyId, whatsappId: connectionId })
    .whereNull('revokedAt')
    .update({ revokedAt: new Date() });
}

/** Ends one session (the visitor left: `setUser(null)`); its streams end at their next check. */
export async function revokeSession(ctx: PluginContext, sessionId: number): Promise<void> {
  await ctx.db.knex('webchatSessions').where({ id: sessionId }).whereNull('revokedAt').update({ revokedAt: new Date() });
}

/** Whether a session is still valid (streams check it on each keep-alive). */
export async function sessionStillValid(ctx: PluginContext, sessionId: number): Promise<boolean> {
  const row = await ctx.db
    .knex('webchatSessions')
    .where({ id: sessionId })
    .whereNull('revokedAt')
    .where('expiresAt', '>', ctx.db.knex.fn.now())
    .first('id');
  return row !== undefined;
}
