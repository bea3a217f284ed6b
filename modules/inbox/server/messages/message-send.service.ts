import { AppError, currentTenant, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import type { MediaType, Message } from '../../shared/types';
import { Message as MessageModel } from '../models/message';
import { Ticket } from '../models/ticket';
import { inboxState } from '../state';
import { notifyTicketChanged, visibleState } from '../tickets/ticket-notify';
import { loadMessages } from './serializer';

/** Runs `fn` in `companyId`'s tenant scope: the current one when it is that company's, else a new one. */
export function inCompany<T>(companyId: number, fn: () => Promise<T>): Promise<T> {
  const scope = currentTenant();
  if (scope?.companyId === companyId) return fn();
  if (scope) return Promise.reject(new Error(`company ${companyId} used inside company ${scope.companyId}'s scope`));
  return runInTenant({ companyId }, fn);
}

/** One outbound message to store: text, a file (caption in `body`), a contact card or a forward. */
export interface OutboundDraft {
  body: string;
  mediaType?: MediaType;
  mediaPath?: string | null;
  mediaName?: string | null;
  /** The stored file's content type (kept in `dataJson` for the driver). */
  mimetype?: string | null;
  quotedMsgId?: number | null;
  isForwarded?: boolean;
}

/** Who sends and how. */
export interface OutboundOptions {
  /** The agent writing (null: the product itself — greetings, bots). */
  userId: number | null;
  /**
   * A private message is shown to agents only and never reaches a channel driver: it is stored as
   * delivered as far as it goes (`sendStatus: 'sent'`, `ack: 0`).
   */
  isPrivate?: boolean;
  /** The automation sending it (`SystemMessage.automation`), kept in `dataJson` and carried by `message.sent`. */
  automation?: string | null;
}

/** The ticket fields outbound work reads. */
export type OutboundTicket = Pick<
  Ticket,
  'id' | 'status' | 'contactId' | 'userId' | 'queueId' | 'whatsappId' | 'isGroup' | 'channel'
>;

/** Text the ticket list shows for a message (its body, else the file's name). */
export function previewOf(draft: { body: string; mediaName?: string | null }): string {
  return draft.body.trim() !== '' ? draft.body : (draft.mediaName ?? '');
}

/** The body with the agent's signature (the company setting `sendSignMessage`, docs/product/tickets-and-inbox.md#entities): `*{name}:*\n{body}`. */
export function signBody(userName: string, body: string): string {
  return `*${userName}:*\n${body}`;
}

/**
 * Queues the delivery of a stored outbound message through its channel's driver. The job id makes a
 * second enqueue while one is pending a no-op. If the queue refuses, the message is marked failed, so it
 * stays visible and can be retried: nothing is lost. A process that dies between storing the message and
 * this call leaves it pending; the pending-delivery sweep (pending-sweep.ts) queues it then.
 */
export async function enqueueDelivery(ctx: PluginContext, companyId: number, messageId: number): Promise<void> {
  try {
    await ctx.jobs.enqueue('deliver-message', { messageId }, { jobId: `deliver-${messageId}`, companyId });
  } catch (error) {
    ctx.log.error({ err: error, messageId }, 'could not queue a message delivery');
    await ctx.db
      .knex('messages')
      .where({ companyId, id: messageId })
      .update({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG', updatedAt: new Date() });
  }
}

/**
 * Stores outbound messages on a ticket (in one transaction, with the ticket's `lastMessage` and
 * `updatedAt`), queues their delivery (not for private ones), and emits `appMessage create` to the
 * entitled users and the ticket update. Returns the messages as the API shows them, in order.
 */
export async function storeOutbound(
  ctx: PluginContext,
  companyId: number,
  ticket: OutboundTicket,
  drafts: OutboundDraft[],
  options: OutboundOptions,
): Promise<Message[]> {
  if (drafts.length === 0) return [];
  const isPrivate = options.isPrivate === true;
  const before = visibleState(ticket);
  const ids = await ctx.db.transaction(async (trx) => {
    const now = Date.now();
    // the ticket first, then its messages, as every writer of messages does (migration 0002: the messages'
    // search documents are written after their ticket)
    const last = drafts[drafts.length - 1] as OutboundDraft;
    await Ticket.query(trx)
      .findById(ticket.id)
      .patch({ lastMessage: previewOf(last), updatedAt: new Date(now + drafts.length - 1) });
    const inserted: number[] = [];
    for (const [index, draft] of drafts.entries()) {
      const row = await MessageModel.query(trx).insert({
        ticketId: ticket.id,
        contactId: ticket.contactId,
        userId: options.userId,
        queueId: ticket.queueId,
        whatsappId: ticket.whatsappId,
        body: draft.body,
        fromMe: true,
        read: true,
        ack: 0,
        mediaType: draft.mediaType ?? 'chat',
        mediaPath: draft.mediaPath ?? null,
        mediaName: draft.mediaName ?? null,
        quotedMsgId: draft.quotedMsgId ?? null,
        isPrivate,
        isForwarded: draft.isForwarded === true,
        sendStatus: isPrivate ? 'sent' : 'pending',
        deliveryByJob: !isPrivate,
        dataJson: outboundData(draft, options),
        // a millisecond apart, so that a batch keeps its order in the chronological list
        createdAt: new Date(now + index),
        updatedAt: new Date(now + index),
      });
      inserted.push(Number(row.id));
    }
    return inserted;
  });
  if (!isPrivate) {
    for (const id of ids) await enqueueDelivery(ctx, companyId, id);
  }
  const [apiTicket, messages] = await Promise.all([
    notifyTicketChanged(ctx, companyId, ticket.id, before),
    loadMessages(ctx, companyId, ids),
  ]);
  if (apiTicket) {
    for (const message of messages) await inboxState(ctx).realtime.messageCreated(companyId, message, apiTicket);
  }
  if (!isPrivate) {
    for (const id of ids) {
      await ctx.events.publish('message.sent', {
        companyId,
        ticketId: ticket.id,
        messageId: id,
        whatsappId: ticket.whatsappId,
        userId: options.userId,
        automation: options.automation ?? null,
        ticket: { status: ticket.status, isGroup: ticket.isGroup },
      });
    }
  }
  return messages;
}

/** What an outbound row keeps in `dataJson`: the file's content type (for the driver), the automation that sent it. */
function outboundData(draft: OutboundDraft, options: OutboundOptions): Record<string, string> | null {
  const data: Record<string, string> = {};
  if (draft.mimetype) data.mimetype = draft.mimetype;
  if (options.automation) data.automation = options.automation;
  return Object.keys(data).length > 0 ? data : null;
}

/** What `sendTextMessage` sends. */
export interface TextMessageInput {
  companyId: number;
  ticketId: number;
  body: string;
  /** The agent it is sent as; default none (the product: greetings, farewells, transfer messages). */
  userId?: number | null;
  isPrivate?: boolean;
  /** The automation sending it (see `OutboundOptions.automation`). */
  automation?: string | null;
  /** A stored file of the company sent with `body` as its caption (`SystemMessage.media`). */
  media?: { storageKey: string; fileName: string; mimetype: string | null; mediaType: MediaType } | null;
}

/**
 * Sends a text message (or a stored file with its caption) on a ticket, whatever its status (greetings on accept, farewells on close,
 * transfer messages): stored, delivered through the channel driver by a job, emitted. The same path as
 * `POST /messages/:ticketId`. Throws ERR_NO_TICKET_FOUND for a ticket outside the company and
 * ERR_EMPTY_MESSAGE for a blank body.
 */
export async function sendTextMessage(ctx: PluginContext, input: TextMessageInput): Promise<Message> {
  return inCompany(input.companyId, async () => {
    const media = input.media ?? null;
    if (input.body.trim() === '' && !media) throw new AppError('ERR_EMPTY_MESSAGE');
    const ticket = await Ticket.query().findById(input.ticketId);
    if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
    const draft: OutboundDraft = media
      ? {
          body: input.body,
          mediaType: media.mediaType,
          mediaPath: media.storageKey,
          mediaName: media.fileName,
          mimetype: media.mimetype,
        }
      : { body: input.body };
    const [message] = await storeOutbound(ctx, input.companyId, ticket, [draft], {
      userId: input.userId ?? null,
      isPrivate: input.isPrivate === true,
      automation: input.automation ?? null,
    });
    return message as Message;
  });
}
