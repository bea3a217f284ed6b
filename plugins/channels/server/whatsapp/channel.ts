import { AppError, type ChannelDriver, type OutboundTarget, type PluginContext } from '@balcao/plugin-sdk/server';
import { updateConnectionStatus } from '../connections/session.service';
import type { ChannelConnection, ChannelDefinition, ConnectionStatus } from '../drivers/registry';
import { whatsappHost } from './host';
import { targetJid } from './outbound/target';
import { enqueueOutbox, failQueued, sendPayloadOf, wakeSender, whatsappMessageId } from './outbox';
import { deleteAuthState } from './session-store/auth-rows';

/** How long deleting a connection waits for its owner to log out before the row (and its keys) go anyway. */
const REMOVE_WAIT_MS = 10_000;

function connectionOf(target: OutboundTarget): number {
  if (target.whatsappId === null) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  return target.whatsappId;
}

/**
 * The inbox's outbound side of WhatsApp: every operation goes into the connection's outbox (outbox.ts) and
 * the process that runs the session is woken; `send` answers at once with the message's WhatsApp id (fixed
 * now, so a repeat is the same message) and ack 0 — the clock — until WhatsApp's server takes it (ack 1).
 */
export function whatsappDriver(ctx: PluginContext): ChannelDriver {
  const { knex } = ctx.db;
  async function queue(
    target: OutboundTarget,
    op: 'send' | 'edit' | 'delete' | 'react' | 'read',
    channelMessageId: string | null,
    payload: Record<string, unknown>,
    messageId: number | null = null,
  ): Promise<void> {
    const connectionId = connectionOf(target);
    await enqueueOutbox(knex, {
      companyId: target.companyId,
      whatsappId: connectionId,
      op,
      channelMessageId,
      messageId,
      jid: targetJid(target),
      payload,
    });
    await wakeSender(ctx, connectionId);
  }
  return {
    async send(target, message) {
      const connectionId = connectionOf(target);
      // a deleted connection has no session to ever send it: refused now, not queued for ever
      if (!(await knex('whatsapps').where({ companyId: target.companyId, id: connectionId }).first('id'))) {
        throw new AppError('ERR_NO_WAPP_FOUND');
      }
      const channelMessageId = whatsappMessageId(connectionId, message.messageId);
      await queue(target, 'send', channelMessageId, { ...sendPayloadOf(message) }, message.messageId);
      return { channelMessageId, ack: 0 };
    },
    async edit(target, channelMessageId, body) {
      await queue(target, 'edit', channelMessageId, { body });
    },
    async delete(target, channelMessageId) {
      await queue(target, 'delete', channelMessageId, { fromMe: true });
    },
    async react(target, channelMessageId, reaction) {
      // the inbox knows whose message it was only by looking: WhatsApp needs it in the key
      const row = (await knex('messages')
        .where({ companyId: target.companyId, whatsappId: target.whatsappId, channelMessageId })
        .first('fromMe')) as { fromMe: boolean } | undefined;
      await queue(target, 'react', channelMessageId, { reaction, fromMe: row?.fromMe === true });
    },
    async markRead(target, channelMessageIds) {
      // a ticket whose connection was deleted has no one to tell: reading it is no failure
      if (channelMessageIds.length === 0 || target.whatsappId === null) return;
      await queue(target, 'read', null, { ids: channelMessageIds });
    },
    async profilePicture(connectionId, identifier) {
      // only where the session runs: a picture is a nicety, not worth a round trip between processes
      const socket = whatsappHost(ctx).session(connectionId);
      return socket ? socket.profilePicture(identifier) : null;
    },
    async checkNumbers(connectionId, numbers) {
      // asked where the session runs (a campaign's list check is a worker's job); elsewhere: unknown
      const session = whatsappHost(ctx).session(connectionId);
      return session ? session.onWhatsApp(numbers) : numbers.map(() => null);
    },
  };
}

/** Whether a live process holds the connection's session. */
async function hasLiveOwner(ctx: PluginContext, connectionId: number): Promise<boolean> {
  const holder = await whatsappHost(ctx).leases.holder(connectionId);
  return holder?.live === true;
}

/** The digits of a phone number to pair with (country code first, 8 to 15 digits) or a 400. */
export function pairingNumber(input: string): string {
  const digits = String(input ?? '').replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) throw new AppError('ERR_WAPP_PAIRING_NUMBER_INVALID');
  return digits;
}

/**
 * The `whatsapp` channel (useWhatsapp): its connections' session actions go to the process that runs the
 * session — or that takes it — as commands (host.ts); the answer is OPENING and the rest (QR code, pairing
 * code, CONNECTED, why it stopped) arrives over `company-{id}-whatsappSession` as the session moves. The
 * channel writes its statuses itself (`managesStatus`), so an answer never overwrites a QR code that came
 * first.
 */
export function whatsappChannel(ctx: PluginContext): ChannelDefinition {
  const host = whatsappHost(ctx);
  async function opening(connection: ChannelConnection): Promise<ConnectionStatus> {
    await updateConnectionStatus(ctx, connection.companyId, connection.id, {
      status: 'OPENING',
      qrcode: '',
      pairingCode: null,
      sessionError: null,
    });
    return 'OPENING';
  }
  return {
    channel: 'whatsapp',
    planFlag: 'useWhatsapp',
    managesStatus: true,
    driver: whatsappDriver(ctx),
    async start(_ctx, connection) {
      const status = await opening(connection);
      await host.command({ action: 'start', companyId: connection.companyId, whatsappId: connection.id });
      return status;
    },
    async restart(_ctx, connection) {
      // nobody runs it: the old pairing is forgotten here, and whoever takes the session pairs anew
      if (!(await hasLiveOwner(ctx, connection.id))) await deleteAuthState(ctx.db.knex, connection.id);
      const status = await opening(connection);
      await host.command({ action: 'restart', companyId: connection.companyId, whatsappId: connection.id });
      return status;
    },
    async pair(_ctx, connection, number) {
      const digits = pairingNumber(number);
      const status = await opening(connection);
      await host.command({ action: 'pair', companyId: connection.companyId, whatsappId: connection.id, number: digits });
      return status;
    },
    async stop(_ctx, connection) {
      await updateConnectionStatus(ctx, connection.companyId, connection.id, {
        status: 'DISCONNECTED',
        qrcode: '',
        pairingCode: null,
        sessionError: null,
      });
      if (await hasLiveOwner(ctx, connection.id)) {
        await host.command({ action: 'stop', companyId: connection.companyId, whatsappId: connection.id });
      } else {
        await deleteAuthState(ctx.db.knex, connection.id);
        const failed = await failQueued(ctx.db.knex, connection.id, 'ERR_WAPP_NOT_INITIALIZED');
        for (const row of failed) {
          await ctx.services.use('inbox').reportDeliveryFailure({
            companyId: row.companyId,
            whatsappId: connection.id,
            channelMessageId: row.channelMessageId,
            error: 'ERR_WAPP_NOT_INITIALIZED',
          });
        }
      }
      return 'DISCONNECTED';
    },
    async remove(_ctx, connection) {
      // the phone should forget the device: the owner logs out before the row and its keys go
      if (await hasLiveOwner(ctx, connection.id)) {
        await host.command({ action: 'stop', companyId: connection.companyId, whatsappId: connection.id });
        const until = Date.now() + REMOVE_WAIT_MS;
        while (Date.now() < until && (await hasLiveOwner(ctx, connection.id))) await new Promise((r) => setTimeout(r, 100));
      }
      await deleteAuthState(ctx.db.knex, connection.id);
    },
  };
}
