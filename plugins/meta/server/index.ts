import { randomBytes } from 'node:crypto';
import { definePlugin } from '@balcao/plugin-sdk/server';
import { type MetaContext, metaApp, metaConfig, metaConfigProblems } from './config';
import { metaErrors } from './errors';
import { closeGraph } from './graph/client';
import { applyInbound, applyInboundMedia } from './inbound/apply';
import { messengerChannel } from './messenger/channel';
import { applyPendingReceipts } from './receipts';
import { retryDelivery } from './retries';
import { seal, secretsKey } from './secrets';
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
    'pending-receipts': { handler: applyPendingReceipts, concurrency: 2 },
  },
  seed: {
    /**
     * Company A's WhatsApp Cloud connection for the route walkers (`:whatsappId` of the template routes →
     * entity `metaWhatsapp`), with its account and an empty template list cached: the walk reaches no Graph.
     */
    async fixtures({ ctx, companyA, marker }) {
      const meta = ctx as MetaContext;
      const [row] = await meta.db
        .knex('whatsapps')
        .insert({
          companyId: companyA.id,
          name: `Cloud ${marker}`.slice(0, 50),
          channel: 'whatsappapi',
          status: 'CONNECTED',
          token: randomBytes(15).toString('hex'),
        })
        .returning('id');
      const whatsappId = row.id as number;
      await meta.db.knex('metaAccounts').insert({
        companyId: companyA.id,
        whatsappId,
        channel: 'whatsappapi',
        externalId: `9${whatsappId}${Date.now()}`.slice(0, 30),
        tokenSealed: seal(secretsKey(meta), 'fixture-token'),
        details: JSON.stringify({ businessAccountId: '100000' }),
      });
      await meta.cache.set(`templates:${whatsappId}`, '[]', 3_600_000);
      return { metaWhatsapp: whatsappId };
    },
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
