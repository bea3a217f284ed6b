import type { JobDefinition, OutboundMessage, PluginContext } from '@balcao/plugin-sdk/server';
import { Message } from '../models/message';
import { Ticket } from '../models/ticket';
import { inboxState } from '../state';
import { attemptDelivery } from './delivery-attempt';
import { outboundTarget } from './driver-registry';
import { loadMessage } from './serializer';

/** Postgres unique violation. */
const UNIQUE_VIOLATION = '23505';

function pgCode(error: unknown): string | undefined {
  const err = error as { code?: unknown; nativeError?: { code?: unknown } };
  const code = typeof err.code === 'string' ? err.code : err.nativeError?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What the job stores after a delivery attempt. */
type Outcome =
  | { sendStatus: 'sent'; channelMessageId: string; ack: number; sendError: null }
  | { sendStatus: 'failed'; sendError: string };

/**
 * Delivers one stored outbound message through its ticket's channel driver (`deliver-message`, queued
 * with the job id `deliver-<messageId>`), and records the outcome of `attemptDelivery` on the message
 * (failed with why: no driver, connection missing or not connected, the channel refused; or sent).
 * Each outcome emits `appMessage update`. Idempotent: a sent (or private, or vanished) message is left alone.
 */
export async function deliverMessage(ctx: PluginContext, companyId: number, messageId: number): Promise<void> {
  const message = await Message.query().findById(messageId);
  if (!message || message.sendStatus === 'sent' || message.isPrivate || message.isDeleted || !message.fromMe) return;
  const ticket = await Ticket.query().findById(message.ticketId);
  if (!ticket) return;

  const attempt = await attemptDelivery(
    ctx,
    companyId,
    await outboundTarget(ctx, companyId, ticket),
    await outboundMessage(ctx, companyId, message),
  );
  const outcome: Outcome =
    attempt.status === 'sent'
      ? { sendStatus: 'sent', channelMessageId: attempt.channelMessageId, ack: attempt.ack, sendError: null }
      : { sendStatus: 'failed', sendError: attempt.error };

  try {
    await Message.query()
      .findById(messageId)
      .patch({ ...outcome, updatedAt: new Date() });
  } catch (error) {
    if (pgCode(error) !== UNIQUE_VIOLATION || outcome.sendStatus !== 'sent') throw error;
    // The channel echoed our own message back (as a fromMe inbound) before its id was stored here: the
    // echo is the same message, so it goes and this one keeps the id.
    const echoes = await Message.query()
      .where({ whatsappId: message.whatsappId, channelMessageId: outcome.channelMessageId, fromMe: true })
      .whereNot('id', messageId)
      .select('id');
    await Message.query()
      .whereIn(
        'id',
        echoes.map((echo) => echo.id),
      )
      .delete();
    await Message.query()
      .findById(messageId)
      .patch({ ...outcome, updatedAt: new Date() });
    for (const echo of echoes) {
      await inboxState(ctx).realtime.messageDeleted(companyId, Number(echo.id), ticket);
    }
  }

  const updated = await loadMessage(ctx, companyId, messageId);
  if (updated) await inboxState(ctx).realtime.messageUpdated(companyId, updated, ticket);
}

/** The stored message as a driver receives it: body, file, quoted message, contact card. */
async function outboundMessage(ctx: PluginContext, companyId: number, message: Message): Promise<OutboundMessage> {
  let quoted: OutboundMessage['quoted'] = null;
  if (message.quotedMsgId !== null) {
    const original = await Message.query().findById(message.quotedMsgId).select('channelMessageId', 'fromMe', 'body');
    if (original?.channelMessageId) {
      quoted = { channelMessageId: original.channelMessageId, fromMe: original.fromMe, body: original.body };
    }
  }
  const data = (message.dataJson ?? {}) as { mimetype?: string };
  const mediaPath = message.mediaPath;
  return {
    messageId: Number(message.id),
    body: message.body,
    mediaType: message.mediaType,
    ...(mediaPath
      ? {
          media: {
            fileName: message.mediaName ?? mediaPath.split('/').pop() ?? 'file',
            mimetype: data.mimetype ?? null,
            storageKey: mediaPath,
            open: () => ctx.storage.get(companyId, mediaPath),
          },
        }
      : {}),
    quoted,
    vCard: message.mediaType === 'contactMessage' ? message.body : null,
    isForwarded: message.isForwarded,
  };
}

/** The `deliver-message` job: runs in the message's company scope. */
export const deliverMessageJob: JobDefinition['handler'] = async (data, ctx, job) => {
  const messageId = Number(data.messageId);
  if (job.companyId === null || !Number.isSafeInteger(messageId)) return;
  await deliverMessage(ctx, job.companyId, messageId);
};
