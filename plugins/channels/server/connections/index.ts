import { createChannelsService } from '../drivers/channels.service';
import type { ChannelsArea } from '../index';
import { connectionErrors } from './errors';
import { newConnectionToken } from './token';

export { requireDefaultConnection } from './connections.service';
export { type ConnectionStatusPatch, updateConnectionStatus } from './session.service';

/**
 * The connections area: the connection entity (docs/product/administration.md#entities, #validation, #calls-and-realtime-events Connections; docs/product/tickets-and-inbox.md#calls-and-realtime-events), its
 * routes (`routes/whatsapp*.ts`), the session actions that call the channels' definitions
 * (drivers/registry.ts) and the realtime events. See docs/channels/connections.md.
 */
export const connectionsArea: ChannelsArea = {
  errors: connectionErrors,
  register(_app, ctx) {
    ctx.services.provide('channels', createChannelsService(ctx));
  },
  seed: {
    /** Company A's connection for the route walkers (`:whatsappId` → entity `whatsapp`), marked. */
    async fixtures({ ctx, companyA, marker }) {
      const [row] = await ctx.db
        .knex('whatsapps')
        .insert({
          companyId: companyA.id,
          name: `Fixture ${marker}`,
          channel: 'webchat',
          isDefault: true,
          token: newConnectionToken(),
          greetingMessage: `Olá ${marker}`,
        })
        .returning('id');
      return { whatsapp: row.id as number };
    },
  },
};
