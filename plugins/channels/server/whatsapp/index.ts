import { registerChannel } from '../drivers/registry';
import type { ChannelsArea } from '../index';
import { whatsappChannel } from './channel';
import { whatsappConfig } from './config';
import { whatsappErrors } from './errors';
import { dropWhatsappHost, whatsappHost } from './host';
import { sweepOutbox } from './outbox';
import { seedWhatsappDemo } from './seed';

export { whatsappHost } from './host';
export { setWhatsAppTransport, setWhatsAppTransportDefaults, type WhatsAppTransport, whatsappTransport } from './transport';

const unregisters = new WeakMap<object, () => void>();

/**
 * The WhatsApp area (docs/channels/whatsapp.md): the `whatsapp` channel on Baileys — sessions that survive
 * (auth state in Postgres, one owner process per session through a fenced lease, reconnection), every
 * message type in and out through the inbox, the outbox per connection, receipts, calls and the message
 * import.
 */
export const whatsappArea: ChannelsArea = {
  config: whatsappConfig,
  errors: whatsappErrors,
  seed: {
    async demo(ctx, demo) {
      await seedWhatsappDemo(ctx, demo);
    },
  },
  jobs: {
    'whatsapp-outbox-sweep': {
      async handler(_data, ctx) {
        await sweepOutbox(ctx.db.knex);
      },
    },
  },
  schedules: [{ name: 'whatsapp-outbox-sweep', everyMs: 3_600_000, job: 'whatsapp-outbox-sweep' }],
  async register(_app, ctx) {
    unregisters.set(ctx, registerChannel(ctx, whatsappChannel(ctx)));
    await whatsappHost(ctx).start();
  },
  async close(ctx) {
    await whatsappHost(ctx).close();
    dropWhatsappHost(ctx);
    unregisters.get(ctx)?.();
    unregisters.delete(ctx);
  },
};
