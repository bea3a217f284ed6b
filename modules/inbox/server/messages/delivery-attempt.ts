import { isAppError, type OutboundMessage, type OutboundTarget, type PluginContext } from '@balcao/plugin-sdk/server';
import { driverFor } from './driver-registry';
import { messageCounters } from './message-metrics';

/** What one delivery attempt stores on its message. */
export type DeliveryAttempt =
  | { status: 'sent'; channelMessageId: string; ack: number; error: null }
  | { status: 'failed'; channelMessageId: null; ack: 0; error: string };

/**
 * Connection statuses from which nothing leaves until a person acts (scans a QR code, pairs, reconnects):
 * a message sent meanwhile fails at once, with why, instead of waiting for ever behind a clock. OPENING
 * (a session coming up) and CONNECTED let it through.
 */
const NOT_CONNECTED = new Set(['DISCONNECTED', 'TIMEOUT', 'qrcode', 'PAIRING']);

const failed = (error: string): DeliveryAttempt => ({
  status: 'failed',
  channelMessageId: null,
  ack: 0,
  error: error.slice(0, 60),
});

/**
 * Why the ticket's connection can't take a message now, or null: it is not connected
 * (`ERR_WAPP_NOT_INITIALIZED`), as the `connections` service tells. A connection the service doesn't know
 * (none, or deleted) is its channel's driver to judge: a channel may need none, and one that does refuses
 * (the WhatsApp driver answers `ERR_NO_WAPP_FOUND`).
 */
async function connectionRefusal(ctx: PluginContext, companyId: number, connectionId: number | null): Promise<string | null> {
  if (connectionId === null || !ctx.services.has('connections')) return null;
  const profile = await ctx.services.use('connections').profile(companyId, connectionId);
  return profile && NOT_CONNECTED.has(profile.status) ? 'ERR_WAPP_NOT_INITIALIZED' : null;
}

/**
 * One attempt to deliver a stored message through its channel — the one rule of the delivery job
 * (jobs/deliver-message.ts) and of `InboxService.deliver` (outbound-stage.ts), so a campaign's message and
 * an agent's meet the same outcomes:
 * - no driver registered for the channel: failed, `ERR_WAPP_NOT_INITIALIZED`;
 * - the connection is not connected: failed, `ERR_WAPP_NOT_INITIALIZED`;
 * - the driver throws: failed, its `AppError` code or `ERR_SENDING_WAPP_MSG`;
 * - success: sent, with the channel's message id and ack (default 1).
 */
export async function attemptDelivery(
  ctx: PluginContext,
  companyId: number,
  target: OutboundTarget,
  message: OutboundMessage,
): Promise<DeliveryAttempt> {
  const attempt = await attemptThroughDriver(ctx, companyId, target, message);
  messageCounters(ctx).outbound.inc({ channel: target.channel, status: attempt.status });
  return attempt;
}

async function attemptThroughDriver(
  ctx: PluginContext,
  companyId: number,
  target: OutboundTarget,
  message: OutboundMessage,
): Promise<DeliveryAttempt> {
  const driver = driverFor(ctx, target.channel);
  if (!driver) return failed('ERR_WAPP_NOT_INITIALIZED');
  const refused = await connectionRefusal(ctx, companyId, target.whatsappId);
  if (refused) return failed(refused);
  try {
    const sent = await driver.send(target, message);
    return { status: 'sent', channelMessageId: sent.channelMessageId, ack: sent.ack ?? 1, error: null };
  } catch (error) {
    if (!isAppError(error)) ctx.log.warn({ err: error, messageId: message.messageId }, 'channel driver failed to send');
    return failed(isAppError(error) ? error.code : 'ERR_SENDING_WAPP_MSG');
  }
}
