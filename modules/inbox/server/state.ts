import type { ChannelDriver, PluginContext } from '@balcao/plugin-sdk/server';
import { InboxRealtime } from './tickets/realtime';

/**
 * What the inbox keeps per running app: its realtime emitter and the channel drivers registered with it.
 * Keyed by the app's plugin context, so two apps in one process (tests) never share drivers or caches.
 */
export interface InboxState {
  realtime: InboxRealtime;
  drivers: Map<string, ChannelDriver>;
}

const states = new WeakMap<PluginContext, InboxState>();

/** The inbox state of the app that `ctx` belongs to (created on first use). */
export function inboxState(ctx: PluginContext): InboxState {
  let state = states.get(ctx);
  if (!state) {
    state = { realtime: new InboxRealtime(ctx), drivers: new Map() };
    states.set(ctx, state);
  }
  return state;
}
