import { definePlugin } from '@balcao/plugin-sdk/server';
import { type MetaContext, metaApp, metaConfig, metaConfigProblems } from './config';
import { metaErrors } from './errors';
import { closeGraph } from './graph/client';
import { applyInbound, applyInboundMedia } from './inbound/apply';
import { messengerChannel } from './messenger/channel';
import { retryDelivery } from './retries';
import { whatsappApiChannel } from './whatsappapi/channel';

const unregisters = new WeakMap<object, Array<() => void>>();

/**
 * The official Meta channels (docs/meta.md): WhatsApp Cloud API (`whatsappapi`, useWhatsapp), Messenger
 * (`facebook`, useFacebook) and Instagram (`instagram`, useInstagram), as channels of the channels plugin
 * registered through the SDK's `channels` service. Each is gated by its own plan flag per connection, so
 * the plugin itself has none. Without the Meta app's settings nothing is registered and their connections
 * keep answering ERR_CHANNEL_NOT_AVAILABLE.
 */
export default definePlugin({
  id: 'meta',
  config: metaConfig,
  checkConfig: metaConfigProblems,
  errors: metaErrors,
  jobs: {
    inbound: { handler: applyInbound, concurrency: 8 },
    'inbound-media': { handler: applyInboundMedia, concurrency: 2 },
    'retry-delivery': { handler: retryDelivery, concurrency: 2 },
  },
  register(_app, ctx) {
    const meta = ctx as MetaContext;
    if (!metaApp(meta)) {
      meta.log.info('Meta channels off: META_APP_ID, META_APP_SECRET and META_VERIFY_TOKEN are not set');
      return;
    }
    const channels = ctx.services.use('channels');
    unregisters.set(ctx, [
      channels.register(whatsappApiChannel(meta)),
      channels.register(messengerChannel(meta, 'facebook')),
      channels.register(messengerChannel(meta, 'instagram')),
    ]);
  },
  async close(ctx) {
    for (const unregister of unregisters.get(ctx) ?? []) unregister();
    unregisters.delete(ctx);
    await closeGraph(ctx as MetaContext);
  },
});
