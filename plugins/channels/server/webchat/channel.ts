import type { ChannelDriver, MessageAck, OutboundTarget, PluginContext } from '@balcao/plugin-sdk/server';
import type { ChannelDefinition } from '../drivers/registry';
import { prepareWebchatConfig, readConfig } from './config';
import { isPresent, publishLive } from './live';
import { companyMessageId, loadWidgetMessage, rowByChannelId, widgetMessage } from './messages';
import { revokeConnectionSessions } from './sessions';
import { forgetWidget } from './widgets';

/** How long `react` waits for the inbox to store the reaction before telling the visitor. */
const REACTION_SETTLE_MS = 2_000;

/** The visitors a ticket's contact is on this connection (their streams get its messages). */
async function visitorsOf(ctx: PluginContext, target: OutboundTarget): Promise<number[]> {
  if (target.whatsappId === null) return [];
  const publicIds: string[] = [];
  const externalIds: string[] = [];
  for (const identifier of target.contact.identifiers) {
    if (identifier.startsWith('webchat:')) publicIds.push(identifier.slice('webchat:'.length));
    const prefix = `webchat-user:${target.whatsappId}:`;
    if (identifier.startsWith(prefix)) externalIds.push(identifier.slice(prefix.length));
  }
  const rows = (await ctx.db
    .knex('webchatVisitors')
    .where({ companyId: target.companyId, whatsappId: target.whatsappId })
    .where((q) => {
      q.where('contactId', target.contact.id);
      if (publicIds.length > 0) q.orWhereIn('publicId', publicIds);
      if (externalIds.length > 0) q.orWhereIn('externalId', externalIds);
    })
    .select('id')) as Array<{ id: number }>;
  return rows.map((row) => row.id);
}

/** The inbox's outbound side of webchat: every operation becomes an event on the visitor's streams. */
export function webchatDriver(ctx: PluginContext): ChannelDriver {
  async function deliverUpdate(
    target: OutboundTarget,
    channelMessageId: string,
    change: (message: NonNullable<Awaited<ReturnType<typeof rowByChannelId>>>) => Parameters<typeof widgetMessage>[3],
  ) {
    if (target.whatsappId === null) return;
    const row = await rowByChannelId(ctx, target.companyId, target.whatsappId, channelMessageId);
    if (!row) return;
    const visitorIds = await visitorsOf(ctx, target);
    if (visitorIds.length === 0) return;
    await publishLive(ctx, {
      visitorIds,
      whatsappId: target.whatsappId,
      event: 'update',
      data: widgetMessage(ctx, target.companyId, row, change(row)),
    });
  }

  return {
    async send(target, message) {
      const channelMessageId = companyMessageId(message.messageId);
      if (target.whatsappId === null) return { channelMessageId, ack: 1 };
      const [visitorIds, stored] = await Promise.all([
        visitorsOf(ctx, target),
        loadWidgetMessage(ctx, target.companyId, message.messageId),
      ]);
      const ack: MessageAck = visitorIds.length > 0 && (await isPresent(ctx, visitorIds)) ? 2 : 1;
      if (stored && visitorIds.length > 0) {
        await publishLive(ctx, { visitorIds, whatsappId: target.whatsappId, event: 'message', data: { ...stored, ack } });
      }
      return { channelMessageId, ack };
    },
    // the inbox calls these before it stores the change: the update carries the change itself
    async edit(target, channelMessageId, body) {
      await deliverUpdate(target, channelMessageId, () => ({ body, isEdited: true }));
    },
    async delete(target, channelMessageId) {
      await deliverUpdate(target, channelMessageId, () => ({ body: '', mediaUrl: null, fileName: null, isDeleted: true }));
    },
    async react(target, channelMessageId) {
      if (target.whatsappId === null) return;
      const connectionId = target.whatsappId;
      const before = JSON.stringify(
        (await rowByChannelId(ctx, target.companyId, connectionId, channelMessageId))?.reactions ?? [],
      );
      // the inbox replaces the agent's own reaction right after this returns: tell the visitor once it did
      void (async () => {
        const deadline = Date.now() + REACTION_SETTLE_MS;
        while (Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const row = await rowByChannelId(ctx, target.companyId, connectionId, channelMessageId);
          if (!row || JSON.stringify(row.reactions) !== before) break;
        }
        await deliverUpdate(target, channelMessageId, () => ({}));
      })().catch((error) => ctx.log.warn({ err: error }, 'webchat reaction update failed'));
    },
    async markRead(target, channelMessageIds) {
      // the agent read the visitor's messages: their ticks turn read in the widget
      for (const channelMessageId of channelMessageIds.slice(0, 200)) {
        await deliverUpdate(target, channelMessageId, () => ({ ack: 5 }));
      }
    },
  };
}

/** The webchat channel (no plan flag): a connection is online while CONNECTED. */
export function webchatChannel(ctx: PluginContext): ChannelDefinition {
  return {
    channel: 'webchat',
    prepareConfig: (input, previous) => prepareWebchatConfig(input, previous) as unknown as Record<string, unknown>,
    publicConfig: (config) => readConfig(config) as unknown as Record<string, unknown>,
    async start(_ctx, connection) {
      forgetWidget(ctx, connection.id);
      await publishLive(ctx, { visitorIds: null, whatsappId: connection.id, event: 'status', data: { online: true } });
      return 'CONNECTED';
    },
    async stop(_ctx, connection) {
      forgetWidget(ctx, connection.id);
      await publishLive(ctx, { visitorIds: null, whatsappId: connection.id, event: 'status', data: { online: false } });
      return 'DISCONNECTED';
    },
    async remove(_ctx, connection) {
      forgetWidget(ctx, connection.id);
      await revokeConnectionSessions(ctx, connection.companyId, connection.id);
      await publishLive(ctx, { visitorIds: null, whatsappId: connection.id, event: 'ended', data: {} });
    },
    driver: webchatDriver(ctx),
  };
}
