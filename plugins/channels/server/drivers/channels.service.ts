import type { ChannelRegistration, ChannelsService, PluginContext } from '@balcao/plugin-sdk/server';
import type { ConnectionChannel } from '../../shared/connection';
import { createConnection } from '../connections/connections.service';
import { updateConnectionStatus } from '../connections/session.service';
import { registerChannel } from './registry';

/**
 * The `channels` service (plugin-sdk channel-contract.ts `ChannelsService`): how a feature beside this
 * plugin (the Meta channels) plugs a channel into the registry and moves its connections' session fields.
 * A registration's hooks run with the registering feature's context, so they ignore the one passed here.
 */
export function createChannelsService(ctx: PluginContext): ChannelsService {
  return {
    register(channel: ChannelRegistration) {
      return registerChannel(ctx, {
        channel: channel.channel,
        planFlag: channel.planFlag,
        prepareConfig: channel.prepareConfig?.bind(channel),
        publicConfig: channel.publicConfig?.bind(channel),
        start: (_ctx, connection) => channel.start(connection),
        stop: (_ctx, connection) => channel.stop(connection),
        remove: channel.remove ? (_ctx, connection) => channel.remove?.(connection) ?? Promise.resolve() : undefined,
        driver: channel.driver,
      });
    },
    async updateStatus(companyId, connectionId, patch) {
      await updateConnectionStatus(ctx, companyId, connectionId, patch);
    },
    async createConnection(draft) {
      const created = await createConnection(ctx, draft.companyId, {
        name: draft.name,
        channel: draft.channel as ConnectionChannel,
        channelConfig: draft.channelConfig,
      });
      if (draft.status !== undefined || draft.number !== undefined)
        await updateConnectionStatus(ctx, draft.companyId, created.id, { status: draft.status, number: draft.number });
      return created.id;
    },
  };
}
