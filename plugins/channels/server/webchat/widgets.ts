import { AppError, type FastifyReply, type FastifyRequest, normalizeOrigin, type PluginContext } from '@balcao/plugin-sdk/server';
import { readConfig, type WebchatChannelConfig } from './config';

/** A webchat connection as the widget's public API sees it. */
export interface WidgetConnection {
  id: number;
  companyId: number;
  name: string;
  status: string;
  config: WebchatChannelConfig;
}

/**
 * Every widget request names its connection by the public widget key. Looked up in this process for a
 * few seconds (the profile area's pattern): dropped at once when the connection changes here or, through
 * the profile's `connection-changed` broadcast, in another process; a lost notice heals within the TTL.
 */
const WIDGET_TTL_MS = 5_000;
/** The profile area's broadcast of "this connection changed" (profile/index.ts). */
const CHANGED_TOPIC = 'connection-changed';

interface Cached {
  widget: WidgetConnection | null;
  expiresAt: number;
}

interface WidgetCache {
  byKey: Map<string, Cached>;
  stop: (() => Promise<void>) | null;
}

const caches = new WeakMap<object, WidgetCache>();

function cacheOf(ctx: PluginContext): WidgetCache {
  const key = ctx.services.use('inbox');
  let cache = caches.get(key);
  if (!cache) {
    cache = { byKey: new Map(), stop: null };
    caches.set(key, cache);
  }
  return cache;
}

/** Forgets a connection in this process (by id: its key may have just changed). */
export function forgetWidget(ctx: PluginContext, connectionId: number): void {
  const cache = cacheOf(ctx);
  for (const [key, entry] of cache.byKey) if (entry.widget?.id === connectionId) cache.byKey.delete(key);
}

export async function startWidgetCache(ctx: PluginContext): Promise<void> {
  const cache = cacheOf(ctx);
  if (cache.stop) return;
  cache.stop = await ctx.broadcast.subscribe(CHANGED_TOPIC, (payload) => {
    const { whatsappId: connectionId } = (payload ?? {}) as { whatsappId?: number };
    if (typeof connectionId === 'number') forgetWidget(ctx, connectionId);
  });
}

export async function stopWidgetCache(ctx: PluginContext): Promise<void> {
  const cache = cacheOf(ctx);
  const stop = cache.stop;
  cache.stop = null;
  cache.byKey.clear();
  await stop?.();
}

/** The connection behind a widget key, across companies (the key is what names the company). 404 when unknown. */
export async function resolveWidget(ctx: PluginContext, widgetKey: string): Promise<WidgetConnection> {
  const cache = cacheOf(ctx);
  const hit = cache.byKey.get(widgetKey);
  let widget: WidgetConnection | null;
  if (hit && hit.expiresAt > Date.now()) {
    widget = hit.widget;
  } else {
    const row = await ctx.db
      .knex('whatsapps')
      .where({ channel: 'webchat' })
      .whereRaw(`channel_config->>'widgetKey' = ?`, [widgetKey])
      .first('id', 'companyId', 'name', 'status', 'channelConfig');
    widget = row
      ? {
          id: row.id,
          companyId: row.companyId,
          name: row.name,
          status: row.status,
          config: readConfig(row.channelConfig as Record<string, unknown>),
        }
      : null;
    if (cache.byKey.size > 10_000) cache.byKey.clear();
    cache.byKey.set(widgetKey, { widget, expiresAt: Date.now() + WIDGET_TTL_MS });
  }
  if (!widget) throw new AppError('ERR_WEBCHAT_NOT_FOUND');
  return widget;
}

export const isOnline = (widget: WidgetConnection) => widget.status === 'CONNECTED';

/**
 * The caller's `Origin` must be one the connection allows (any, when it lists none). Sets the CORS
 * answer for it. A call without `Origin` (a server, curl) passes only when any origin is allowed: a
 * browser always sends it on the widget's cross-origin calls.
 */
export function admitOrigin(widget: WidgetConnection, request: FastifyRequest, reply: FastifyReply): void {
  const header = request.headers.origin;
  const origin = typeof header === 'string' ? normalizeOrigin(header) : null;
  const allowed = widget.config.allowedOrigins;
  reply.header('vary', 'Origin');
  // also on the refusal: the widget on a page of a refused origin reads the code and says why it can't
  // work (the answer carries nothing but the code)
  if (origin) reply.header('access-control-allow-origin', origin);
  if (allowed.length > 0 && (!origin || !allowed.includes(origin))) throw new AppError('ERR_WEBCHAT_ORIGIN_REFUSED');
}
