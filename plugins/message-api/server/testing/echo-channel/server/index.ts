import { definePlugin, type PluginContext } from '@balcao/plugin-sdk/server';

/**
 * Test and bench fixture (not product code), loaded through `BALCAO_PLUGINS` / `createTestApp({ plugins })`:
 * the channel `echo`, whose driver accepts every message in this process, as a provider would, keeping one
 * channel message per inbox message id (the idempotency key every try of a message carries) and counting
 * the driver calls per message, so that tests can tell a message sent twice from one sent once.
 */
export const ECHO_CHANNEL = 'echo';

const SENDS = Symbol.for('balcao.test.messageApiEchoSends');
const globals = globalThis as typeof globalThis & { [SENDS]?: Map<number, number> };

/** Driver calls per inbox message id, in this process. */
export function echoSends(): Map<number, number> {
  globals[SENDS] ??= new Map();
  return globals[SENDS];
}

const unregister = new WeakMap<PluginContext, () => void>();

export default definePlugin({
  id: 'message-api-echo',
  register(_app, ctx) {
    const stop = ctx.services.use('inbox').registerDriver(ECHO_CHANNEL, {
      async send(target, message) {
        const sends = echoSends();
        sends.set(message.messageId, (sends.get(message.messageId) ?? 0) + 1);
        return { channelMessageId: `echo-${target.whatsappId}-${message.messageId}`, ack: 1 };
      },
    });
    unregister.set(ctx, stop);
  },
  async close(ctx) {
    unregister.get(ctx)?.();
  },
});
