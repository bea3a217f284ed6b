import type { Readable } from 'node:stream';
import { AppError, isAppError, type PluginContext } from '@balcao/plugin-sdk/server';
import { type AnyMessageContent, type MiscMessageGenerationOptions, proto, type WASocket } from '@whiskeysockets/baileys';
import { buildOutboundContent, deleteContent, editContent, messageKey, reactionContent } from './outbound';
import { markFailed, markSent, nextQueued, type OutboxRow, postpone, queuedState, type SendPayload } from './outbox';

/** Tries of an operation that fails for a reason that may pass (not a closed socket: that one waits). */
const MAX_ATTEMPTS = 5;
/** Rows read per round trip of the drain. */
const BATCH = 20;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** An error of the socket going away under a send: the row waits for the next connection, untouched. */
function isConnectionError(error: unknown): boolean {
  const status = (error as { output?: { statusCode?: number } })?.output?.statusCode;
  return status === 428 || status === 408 || status === 440 || status === 503 || status === 515;
}

export interface SenderHost {
  ctx: PluginContext;
  companyId: number;
  whatsappId: number;
  /** The open socket, or null while (re)connecting. */
  socket(): WASocket | null;
  sendsPerSecond: number;
  /** The process still owns the session (its lease): a sender of a lost lease stops at once. */
  owns(): boolean;
}

/**
 * Drains a connection's outbox (outbox.ts) in the process that runs its session: in order, one at a time,
 * at most `sendsPerSecond`, only while the socket is open. A send's WhatsApp id was fixed when it was
 * queued, so a row sent again after a crash is the same message. Ack 1 (sent) once WhatsApp's server has
 * it; delivery and read come later as receipts (session.ts). A row that can't go (no such contact, its
 * file gone) or failed `MAX_ATTEMPTS` times is marked failed and reported to the inbox, where the agent
 * sees it and may retry.
 */
export class OutboxSender {
  private running = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private lastSendAt = 0;
  private stopped = false;

  constructor(private readonly host: SenderHost) {}

  /** Something was queued or the socket opened: drain (once; a call while draining drains again after). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain()
      .catch((error) => this.host.ctx.log.warn({ err: error, whatsappId: this.host.whatsappId }, 'whatsapp outbox drain failed'))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async drain(): Promise<void> {
    const { knex } = this.host.ctx.db;
    for (;;) {
      if (this.stopped || !this.host.owns() || !this.host.socket()) return;
      const rows = await nextQueued(knex, this.host.whatsappId, BATCH);
      if (rows.length === 0) {
        this.scheduleLater(await queuedState(knex, this.host.whatsappId));
        return;
      }
      for (const row of rows) {
        const socket = this.host.socket();
        if (this.stopped || !this.host.owns() || !socket) return;
        await this.pace();
        const outcome = await this.run(socket, row);
        if (outcome === 'disconnected') return;
      }
    }
  }

  /** A postponed row is due later: wake then. */
  private scheduleLater(state: { ready: boolean; nextAt: Date | null }): void {
    if (!state.nextAt || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(50, state.nextAt.getTime() - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, delay);
    this.timer.unref();
  }

  private async pace(): Promise<void> {
    const gap = 1_000 / Math.max(0.1, this.host.sendsPerSecond);
    const wait = this.lastSendAt + gap - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.lastSendAt = Date.now();
  }

  private async run(socket: WASocket, row: OutboxRow): Promise<'done' | 'disconnected'> {
    const { ctx } = this.host;
    const { knex } = ctx.db;
    try {
      const sent = await this.perform(socket, row);
      await markSent(knex, row.id, sent);
      if (row.op === 'send' && row.channelMessageId) {
        await ctx.services
          .use('inbox')
          .updateAck({ companyId: row.companyId, whatsappId: row.whatsappId, channelMessageId: row.channelMessageId, ack: 1 });
      }
      return 'done';
    } catch (error) {
      if (isConnectionError(error)) {
        // not this row's fault: it goes first when the socket is back
        return 'disconnected';
      }
      const code = isAppError(error) ? error.code : 'ERR_SENDING_WAPP_MSG';
      const permanent = isAppError(error) || row.attempts + 1 >= MAX_ATTEMPTS;
      if (!permanent) {
        await postpone(knex, row.id, String((error as Error)?.message ?? error), 2 ** row.attempts * 1_000);
        return 'done';
      }
      ctx.log.warn({ err: error, whatsappId: row.whatsappId, op: row.op }, 'whatsapp outbound operation failed');
      await markFailed(knex, row.id, code);
      if (row.op === 'send' && row.channelMessageId) {
        await ctx.services.use('inbox').reportDeliveryFailure({
          companyId: row.companyId,
          whatsappId: row.whatsappId,
          channelMessageId: row.channelMessageId,
          error: code,
        });
      }
      return 'done';
    }
  }

  /** Does one operation; answers the message as sent (for retry requests) when it was a send. */
  private async perform(socket: WASocket, row: OutboxRow): Promise<Uint8Array | null> {
    const payload = row.payload;
    const send = async (content: AnyMessageContent, options: MiscMessageGenerationOptions = {}) =>
      socket.sendMessage(row.jid, content, options);
    switch (row.op) {
      case 'send': {
        const message = payload as unknown as SendPayload;
        let file: Buffer | null = null;
        if (message.media) {
          const stream = await this.host.ctx.storage.get(row.companyId, message.media.storageKey);
          if (!stream) throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA');
          file = await readAll(stream);
        }
        const built = buildOutboundContent(message, file, { jid: row.jid, messageId: row.channelMessageId as string });
        const sent = await send(built.content, built.options);
        return sent?.message ? proto.Message.encode(sent.message).finish() : null;
      }
      case 'edit':
        await send(editContent(messageKey(row.jid, row.channelMessageId as string, true), String(payload.body ?? '')));
        return null;
      case 'delete':
        await send(deleteContent(messageKey(row.jid, row.channelMessageId as string, payload.fromMe !== false)));
        return null;
      case 'react':
        await send(
          reactionContent(
            messageKey(row.jid, row.channelMessageId as string, payload.fromMe === true),
            String(payload.reaction ?? ''),
          ),
        );
        return null;
      case 'read': {
        const ids = Array.isArray(payload.ids) ? (payload.ids as string[]) : [];
        if (ids.length > 0) await socket.readMessages(ids.map((id) => messageKey(row.jid, id, false)));
        return null;
      }
      default:
        return null;
    }
  }
}
