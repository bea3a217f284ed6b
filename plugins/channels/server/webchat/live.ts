import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { WebchatEventMap, WebchatEventName } from '../../shared/webchat';

/**
 * Live delivery to widgets: every process keeps the event streams it holds, keyed by visitor and by
 * connection, and listens on one broadcast topic. A driver call (an agent's reply, an edit, a typing
 * notice) publishes once; the process holding the visitor's streams writes the event. At most once:
 * a visitor whose stream was down reloads the conversation when it reconnects (`GET messages`).
 */

/** The broadcast topic of webchat deliveries (the channels feature's own namespace). */
const LIVE_TOPIC = 'webchat-live';
/** Visitors with an open stream somewhere, for the "delivered" ack (refreshed while streams live). */
export const PRESENCE_TTL_MS = 60_000;
const presenceKey = (visitorId: number) => `webchat:presence:${visitorId}`;

export interface LiveDelivery<E extends WebchatEventName = WebchatEventName> {
  /** One visitor's streams, or (null) every stream of the connection. */
  visitorIds: number[] | null;
  whatsappId: number;
  /** Only the streams of this session (a revoked one), not the visitor's others. */
  sessionId?: number;
  event: E;
  data: WebchatEventMap[E];
}

/** A stream as the registry knows it. */
export interface LiveStream {
  visitorId: number;
  sessionId: number;
  whatsappId: number;
  write(event: WebchatEventName, data: unknown): void;
  /** Ends the stream (after an `ended` event). */
  end(): void;
}

class LiveRegistry {
  readonly byVisitor = new Map<number, Set<LiveStream>>();
  readonly byConnection = new Map<number, Set<LiveStream>>();
  unsubscribe: (() => Promise<void>) | null = null;

  add(stream: LiveStream): () => void {
    addTo(this.byVisitor, stream.visitorId, stream);
    addTo(this.byConnection, stream.whatsappId, stream);
    return () => {
      removeFrom(this.byVisitor, stream.visitorId, stream);
      removeFrom(this.byConnection, stream.whatsappId, stream);
    };
  }

  deliver(delivery: LiveDelivery): void {
    const targets =
      delivery.visitorIds === null
        ? [...(this.byConnection.get(delivery.whatsappId) ?? [])]
        : delivery.visitorIds.flatMap((id) => [...(this.byVisitor.get(id) ?? [])]);
    for (const stream of targets) {
      // a visitor id is unique across connections; the check keeps a stale message from crossing anyway
      if (stream.whatsappId !== delivery.whatsappId) continue;
      if (delivery.sessionId !== undefined && stream.sessionId !== delivery.sessionId) continue;
      stream.write(delivery.event, delivery.data);
      if (delivery.event === 'ended') stream.end();
    }
  }
}

function addTo<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream) {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(stream);
}

function removeFrom<K>(map: Map<K, Set<LiveStream>>, key: K, stream: LiveStream) {
  const set = map.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) map.delete(key);
}

const registries = new WeakMap<object, LiveRegistry>();

/** This app's registry (keyed by its inbox service: two apps in one test process keep their own). */
export function liveRegistry(ctx: PluginContext): LiveRegistry {
  const key = ctx.services.use('inbox');
  let registry = registries.get(key);
  if (!registry) {
    registry = new LiveRegistry();
    registries.set(key, registry);
  }
  return registry;
}

/** Starts listening for deliveries of other processes (and this one's: publishing goes through Redis). */
export async function startLive(ctx: PluginContext): Promise<void> {
  const registry = liveRegistry(ctx);
  if (registry.unsubscribe) return;
  registry.unsubscribe = await ctx.broadcast.subscribe(LIVE_TOPIC, (payload) => {
    const delivery = payload as LiveDelivery;
    if (!delivery || typeof delivery.whatsappId !== 'number' || typeof delivery.event !== 'string') return;
    registry.deliver(delivery);
  });
}

export async function stopLive(ctx: PluginContext): Promise<void> {
  const registry = liveRegistry(ctx);
  const stop = registry.unsubscribe;
  registry.unsubscribe = null;
  for (const streams of registry.byConnection.values()) for (const stream of [...streams]) stream.end();
  await stop?.();
}

/** Sends an event to visitors' open streams, wherever they are. */
export async function publishLive<E extends WebchatEventName>(ctx: PluginContext, delivery: LiveDelivery<E>): Promise<void> {
  await ctx.broadcast.publish(LIVE_TOPIC, delivery);
}

export async function markPresent(ctx: PluginContext, visitorId: number): Promise<void> {
  await ctx.cache.set(presenceKey(visitorId), '1', PRESENCE_TTL_MS);
}

export async function isPresent(ctx: PluginContext, visitorIds: number[]): Promise<boolean> {
  for (const id of visitorIds) if ((await ctx.cache.get(presenceKey(id))) !== null) return true;
  return false;
}
