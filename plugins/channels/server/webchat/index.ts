import { registerChannel } from '../drivers/registry';
import type { ChannelsArea } from '../index';
import { webchatChannel } from './channel';
import { webchatConfig } from './demo-config';
import { webchatErrors } from './errors';
import { startLive, stopLive } from './live';
import { seedSupportChatDemo, seedWebchatDemo } from './seed';
import { startWidgetCache, stopWidgetCache } from './widgets';

const unregisters = new WeakMap<object, () => void>();

/**
 * The webchat area (docs/channels/webchat.md): the `webchat` channel (its config, life cycle and
 * driver), the widget's public API (routes/webchat.ts), live delivery to visitors' event streams in any
 * process and Acme's demo connection.
 */
export const webchatArea: ChannelsArea = {
  config: webchatConfig,
  errors: webchatErrors,
  seed: {
    async demo(ctx, demo) {
      await seedWebchatDemo(ctx, demo);
      await seedSupportChatDemo(ctx, demo);
    },
  },
  async register(_app, ctx) {
    unregisters.set(ctx, registerChannel(ctx, webchatChannel(ctx)));
    await startLive(ctx);
    await startWidgetCache(ctx);
  },
  async close(ctx) {
    unregisters.get(ctx)?.();
    unregisters.delete(ctx);
    await stopLive(ctx);
    await stopWidgetCache(ctx);
  },
};
