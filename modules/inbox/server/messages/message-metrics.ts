import type { MetricCounter, PluginContext } from '@balcao/plugin-sdk/server';

interface MessageCounters {
  inbound: MetricCounter;
  outbound: MetricCounter;
}

const countersByContext = new WeakMap<PluginContext, MessageCounters>();

/**
 * The message counters of the process (`balcao_messages_inbound_total`, `balcao_messages_outbound_total`),
 * counted where every message passes: the one receive entry of the channel contract and the one delivery
 * attempt. Declared once per app and kept, so a message costs a label lookup.
 */
export function messageCounters(ctx: PluginContext): MessageCounters {
  let counters = countersByContext.get(ctx);
  if (!counters) {
    counters = {
      inbound: ctx.metrics.counter({
        name: 'messages_inbound_total',
        help: 'Messages received from a channel and stored (a redelivered one is not counted again), by channel',
        labelNames: ['channel'],
      }),
      outbound: ctx.metrics.counter({
        name: 'messages_outbound_total',
        help: 'Delivery attempts of outgoing messages through a channel, by channel and outcome (sent, failed)',
        labelNames: ['channel', 'status'],
      }),
    };
    countersByContext.set(ctx, counters);
  }
  return counters;
}
