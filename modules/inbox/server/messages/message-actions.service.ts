import { AppError, isAppError, type PluginContext, type SessionUser } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { EDIT_WINDOW_MS, MESSAGES_PAGE_SIZE, type Message, type MessageReaction, type Ticket } from '../../shared/types';
import type { JsonText } from '../json-sql';
import { Contact } from '../models/contact';
import { Message as MessageModel } from '../models/message';
import { Ticket as TicketModel } from '../models/ticket';
import { inboxState } from '../state';
import { masksNumbers } from '../tickets/serializer';
import { notifyTicketChanged, visibleState } from '../tickets/ticket-notify';
import { fillTicketVariables } from '../tickets/variables';
import { canSeeTicket, type VisibleTicketFields, viewerOf } from '../tickets/visibility';
import { driverFor, outboundTarget, type TargetTicket } from './driver-registry';
import { enqueueDelivery, type OutboundDraft, signBody, storeOutbound } from './message-send.service';
import { loadMessage, loadTicketPageJson } from './serializer';

/** Whether deleted messages are dropped from lists and events (LGPD: both settings enabled). */
export function hidesDeletedMessages(settings: Record<string, string>): boolean {
  return settings.enableLGPD === 'enabled' && settings.lgpdDeleteMessage === 'enabled';
}

/**
 * Emits a message's change to the users entitled to its ticket: `appMessage update` with the message, or
 * — for a deletion while LGPD hides deleted messages — `appMessage delete`.
 */
export async function emitMessageChanged(
  ctx: PluginContext,
  companyId: number,
  messageId: number,
  ticket?: VisibleTicketFields & { id: number },
  options: { deleted?: boolean } = {},
): Promise<Message | null> {
  const message = await loadMessage(ctx, companyId, messageId);
  if (!message) return null;
  const fields =
    ticket ??
    (await ctx.db
      .knex('tickets')
      .where({ companyId, id: message.ticketId })
      .first('id', 'userId', 'queueId', 'isGroup', 'status'));
  if (!fields) return message;
  if (options.deleted && hidesDeletedMessages(await ctx.settings.all(companyId))) {
    await inboxState(ctx).realtime.messageDeleted(companyId, message.id, fields);
  } else {
    await inboxState(ctx).realtime.messageUpdated(companyId, message, fields);
  }
  return message;
}

/** A ticket the user may see, else 404 ERR_NO_TICKET_FOUND (as if it did not exist). */
export async function visibleTicket(user: SessionUser, where: { id: number } | { uuid: string }): Promise<TicketModel> {
  const ticket = 'id' in where ? await TicketModel.query().findById(where.id) : await TicketModel.query().findOne(where);
  if (!ticket || !canSeeTicket(viewerOf(user), ticket)) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/** A message on a ticket the user may see, else 404 ERR_NO_MESSAGE_FOUND. */
async function visibleMessage(user: SessionUser, id: number): Promise<{ message: MessageModel; ticket: TicketModel }> {
  const message = await MessageModel.query().findById(id);
  const ticket = message ? await TicketModel.query().findById(message.ticketId) : undefined;
  if (!message || !ticket || !canSeeTicket(viewerOf(user), ticket)) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return { message, ticket };
}

/** Own message: sent by the company, by this user. */
function isOwn(message: MessageModel, user: SessionUser): boolean {
  return message.fromMe && message.userId === user.id;
}

/** Whether the channel knows the message (a driver call is needed to change it there). */
function onChannel(message: MessageModel): message is MessageModel & { channelMessageId: string } {
  return !message.isPrivate && message.channelMessageId !== null && message.sendStatus === 'sent';
}

/**
 * Calls a driver's optional operation for a message the channel knows. No driver registered for the
 * channel: ERR_WAPP_NOT_INITIALIZED; a driver without the operation: nothing to do there; the driver
 * failing: its AppError code, else `fallback`.
 */
async function onDriver(
  ctx: PluginContext,
  companyId: number,
  ticket: TicketModel,
  op: 'edit' | 'delete' | 'react',
  fallback: 'ERR_SENDING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG',
  call: (
    driver: NonNullable<ReturnType<typeof driverFor>>,
    target: Awaited<ReturnType<typeof outboundTarget>>,
  ) => Promise<void> | undefined,
): Promise<void> {
  const driver = driverFor(ctx, ticket.channel);
  if (!driver) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  if (!driver[op]) return;
  const target = await outboundTarget(ctx, companyId, ticket);
  try {
    await call(driver, target);
  } catch (error) {
    if (isAppError(error)) throw error;
    ctx.log.warn({ err: error, op }, 'channel driver failed');
    throw new AppError(fallback);
  }
}

/** What `GET /messages/:ticketUuid` answers. */
export interface MessagePage {
  messages: Message[];
  ticket: Ticket;
  count: number;
  hasMore: boolean;
}

/**
 * One page of a ticket's messages (30, newest page first, each page chronological), the ticket, the
 * count and whether older pages exist, as the JSON text of the answer (built by Postgres, see
 * services/json-sql.ts). Deleted messages are left out when LGPD hides them. The first page read by the
 * ticket's assigned user on an open or group ticket marks it read (and is read again, with the ticket so).
 */
export async function listTicketMessages(
  ctx: PluginContext,
  user: SessionUser,
  ticketUuid: string,
  pageNumber: number,
): Promise<JsonText<MessagePage>> {
  const companyId = user.companyId;
  const settings = await ctx.settings.all(companyId);
  const read = () =>
    loadTicketPageJson(ctx, companyId, ticketUuid, {
      offset: (pageNumber - 1) * MESSAGES_PAGE_SIZE,
      // one more than a page: the extra row, read only to know about older pages, is the oldest
      limit: MESSAGES_PAGE_SIZE + 1,
      pageSize: MESSAGES_PAGE_SIZE,
      hideDeleted: hidesDeletedMessages(settings),
      mask: masksNumbers(user.profile, settings),
    });
  // the ticket, the page and the count in one statement: the page is not answered unless the ticket is visible
  const page = await read();
  if (!page || !canSeeTicket(viewerOf(user), page.ticket)) throw new AppError('ERR_NO_TICKET_FOUND');
  const { ticket } = page;
  if (
    pageNumber === 1 &&
    ticket.userId === user.id &&
    (ticket.status === 'open' || ticket.status === 'group') &&
    ticket.unreadMessages > 0
  ) {
    // the read marks change the ticket (rare: the first read after new messages): read it again after them
    const model = await TicketModel.query().findById(ticket.id);
    if (model) await markTicketRead(ctx, companyId, model);
    return ((await read()) ?? page).json;
  }
  return page.json;
}

/**
 * Marks a ticket read (its assigned user opened it): unread messages become read, `unreadMessages` 0,
 * the channel's read receipts are sent for them (never on arrival) and the ticket update is emitted.
 */
export async function markTicketRead(ctx: PluginContext, companyId: number, ticket: TicketModel): Promise<void> {
  if (ticket.unreadMessages === 0) return;
  const before = visibleState(ticket);
  const channelIds = await ctx.db.transaction(async (trx) => {
    const read = await readContactMessages(trx, companyId, ticket.id);
    await trx('tickets').where({ companyId, id: ticket.id }).update({ unreadMessages: 0 });
    return read;
  });
  ticket.unreadMessages = 0;
  await sendReadReceipts(ctx, companyId, ticket, channelIds);
  await notifyTicketChanged(ctx, companyId, ticket.id, before);
}

/** Marks the contact's unread messages of a ticket read; answers their channel ids (for the receipts). */
export async function readContactMessages(trx: Knex, companyId: number, ticketId: number): Promise<string[]> {
  const read = (await trx('messages')
    .where({ companyId, ticketId, read: false, fromMe: false })
    .update({ read: true })
    .returning('channelMessageId')) as Array<{ channelMessageId: string | null }>;
  return read.flatMap((row) => (row.channelMessageId ? [row.channelMessageId] : []));
}

/** Tells the ticket's channel that the contact's messages were read (never on arrival: when an agent reads). */
export async function sendReadReceipts(
  ctx: PluginContext,
  companyId: number,
  ticket: TargetTicket,
  channelIds: string[],
): Promise<void> {
  const driver = driverFor(ctx, ticket.channel);
  if (!driver?.markRead || channelIds.length === 0) return;
  try {
    await driver.markRead(await outboundTarget(ctx, companyId, ticket), channelIds);
  } catch (error) {
    // a lost read receipt is no reason to fail the read
    ctx.log.warn({ err: error, ticketId: ticket.id }, 'channel driver failed to mark read');
  }
}

/** A contact card (vCard 3.0) for `contactMessage`. */
export function buildVCard(card: { name: string; number: string }): string {
  const name = card.name.replace(/[\r\n;]+/g, ' ').trim();
  const number = card.number.replace(/\D/g, '');
  return `BEGIN:VCARD\nVERSION:3.0\nN:${name}\nFN:${name}\nTEL;type=CELL;waid=${number}:+${number}\nEND:VCARD`;
}

/** What an agent sends with `POST /messages/:ticketId`. */
export interface AgentSend {
  body: string;
  isPrivate: boolean;
  signMessage: boolean;
  quotedMsgId: number | null;
  vCard: { name: string; number: string } | null;
  files: Array<{ key: string; name: string; mimetype: string; mediaType: OutboundDraft['mediaType'] }>;
}

/** Refuses a send on a ticket that is not open or group (the composer is disabled there too). */
export function requireOpenTicket(ticket: TicketModel): void {
  if (ticket.status !== 'open' && ticket.status !== 'group') throw new AppError('ERR_TICKET_NOT_OPEN');
}

/**
 * An agent's send on an open ticket: text, files (one message each, the caption on the first), a contact
 * card; message variables (docs/product/tickets-and-inbox.md#constants-and-limits) filled, as the composer's preview shows them; signed when asked;
 * replying to a message of the same ticket. Stored, delivered, emitted.
 */
export async function sendAgentMessage(
  ctx: PluginContext,
  user: SessionUser,
  ticket: TicketModel,
  input: AgentSend,
): Promise<Message[]> {
  requireOpenTicket(ticket);
  const text = input.body.trim() === '' ? '' : input.body;
  if (text === '' && input.files.length === 0 && !input.vCard) throw new AppError('ERR_EMPTY_MESSAGE');
  if (input.quotedMsgId !== null) {
    const quoted = await MessageModel.query().findById(input.quotedMsgId).select('ticketId');
    if (!quoted || quoted.ticketId !== ticket.id) {
      throw new AppError('ERR_VALIDATION', {
        details: [{ field: 'body.quotedMsg', message: 'is not a message of this ticket' }],
      });
    }
  }
  // variables (a quick reply's `{{name}}` …) are filled here, once, so what is stored is what the customer reads
  const filled = text === '' ? text : await fillTicketVariables(ctx, user.companyId, ticket.id, text, { user });
  const body = filled !== '' && input.signMessage ? signBody(user.name, filled) : filled;
  const drafts: OutboundDraft[] = [];
  if (input.files.length > 0) {
    input.files.forEach((file, index) => {
      drafts.push({
        body: index === 0 ? body : '',
        mediaType: file.mediaType,
        mediaPath: file.key,
        mediaName: file.name,
        mimetype: file.mimetype,
      });
    });
  } else if (body !== '') {
    drafts.push({ body });
  }
  if (input.vCard) drafts.push({ body: buildVCard(input.vCard), mediaType: 'contactMessage' });
  if (drafts[0] && input.quotedMsgId !== null) drafts[0].quotedMsgId = input.quotedMsgId;
  return storeOutbound(ctx, user.companyId, ticket, drafts, { userId: user.id, isPrivate: input.isPrivate });
}

/** `POST /messages/edit/:messageId`: own messages within 15 minutes; edited on the channel when sent there. */
export async function editMessage(ctx: PluginContext, user: SessionUser, id: number, body: string): Promise<Message> {
  const { message, ticket } = await visibleMessage(user, id);
  if (!isOwn(message, user) || message.isDeleted) throw new AppError('ERR_NO_PERMISSION');
  if (Date.now() - new Date(message.createdAt).getTime() > EDIT_WINDOW_MS) throw new AppError('ERR_EDIT_WINDOW_EXPIRED');
  if (body.trim() === '') throw new AppError('ERR_EMPTY_MESSAGE');
  if (onChannel(message)) {
    await onDriver(ctx, user.companyId, ticket, 'edit', 'ERR_SENDING_WAPP_MSG', (driver, target) =>
      driver.edit?.(target, message.channelMessageId, body),
    );
  }
  await MessageModel.query().findById(id).patch({ body, isEdited: true, updatedAt: new Date() });
  return (await emitMessageChanged(ctx, user.companyId, id, ticket)) as Message;
}

/** `DELETE /messages/:id`: own messages; kept with `isDeleted`, deleted on the channel when sent there. */
export async function deleteMessage(ctx: PluginContext, user: SessionUser, id: number): Promise<Message> {
  const { message, ticket } = await visibleMessage(user, id);
  if (!isOwn(message, user)) throw new AppError('ERR_NO_PERMISSION');
  if (!message.isDeleted) {
    if (onChannel(message)) {
      await onDriver(ctx, user.companyId, ticket, 'delete', 'ERR_DELETE_WAPP_MSG', (driver, target) =>
        driver.delete?.(target, message.channelMessageId),
      );
    }
    await MessageModel.query().findById(id).patch({ isDeleted: true, updatedAt: new Date() });
  }
  return (await emitMessageChanged(ctx, user.companyId, id, ticket, { deleted: true })) as Message;
}

/**
 * `POST /messages/:id/reactions`: the user's reaction (one per agent: it replaces theirs; an empty type
 * removes it), sent to the channel when the message is there.
 */
export async function reactToMessage(ctx: PluginContext, user: SessionUser, id: number, type: string): Promise<Message> {
  const { message, ticket } = await visibleMessage(user, id);
  if (onChannel(message)) {
    await onDriver(ctx, user.companyId, ticket, 'react', 'ERR_SENDING_WAPP_MSG', (driver, target) =>
      driver.react?.(target, message.channelMessageId, type),
    );
  }
  await ctx.db.transaction(async (trx) => {
    const current = await MessageModel.query(trx).findById(id).forUpdate().select('reactions');
    const others = (current?.reactions ?? []).filter((reaction) => reaction.userId !== user.id);
    const reactions: MessageReaction[] = type ? [...others, { type, fromMe: true, userId: user.id, contactId: null }] : others;
    await MessageModel.query(trx).findById(id).patch({ reactions, updatedAt: new Date() });
  });
  return (await emitMessageChanged(ctx, user.companyId, id, ticket)) as Message;
}

/**
 * `POST /messages/:id/retry`: a failed outbound message (not private) is queued for delivery again. The
 * company's own messages: the caller's, the product's (greetings …), or any for an admin.
 */
export async function retryMessage(ctx: PluginContext, user: SessionUser, id: number): Promise<Message> {
  const { message, ticket } = await visibleMessage(user, id);
  const mine = message.userId === user.id || message.userId === null || user.profile === 'admin';
  if (!message.fromMe || !mine) throw new AppError('ERR_NO_PERMISSION');
  if (message.isPrivate || message.isDeleted || message.sendStatus !== 'failed') {
    throw new AppError('ERR_MESSAGE_NOT_RETRYABLE');
  }
  await MessageModel.query()
    .findById(id)
    .patch({ sendStatus: 'pending', sendError: null, deliveryByJob: true, updatedAt: new Date() });
  await enqueueDelivery(ctx, user.companyId, id);
  return (await emitMessageChanged(ctx, user.companyId, id, ticket)) as Message;
}

/**
 * `POST /message/forward`: copies a message (body, file) to a contact's active ticket on the same
 * connection — or to a new one, open for the caller — marked forwarded, and delivers it.
 */
export async function forwardMessage(
  ctx: PluginContext,
  user: SessionUser,
  input: { messageId: number; contactId: number; signMessage: boolean },
): Promise<Message> {
  const companyId = user.companyId;
  const { message, ticket: source } = await visibleMessage(user, input.messageId);
  // a private note never leaves the company; a deleted message is gone
  if (message.isPrivate || message.isDeleted) throw new AppError('ERR_NO_PERMISSION');
  const contact = await Contact.query().findById(input.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  const ticket = await activeTicketFor(ctx, user, contact, source);
  const body = input.signMessage && message.body.trim() !== '' ? signBody(user.name, message.body) : message.body;
  const data = (message.dataJson ?? {}) as { mimetype?: string };
  const [copy] = await storeOutbound(
    ctx,
    companyId,
    ticket,
    [
      {
        body,
        mediaType: message.mediaType,
        mediaPath: message.mediaPath,
        mediaName: message.mediaName,
        mimetype: data.mimetype ?? null,
        isForwarded: true,
      },
    ],
    { userId: user.id },
  );
  return copy as Message;
}

/** The contact's ticket that is not closed on the source's connection, or a new one open for the user. */
async function activeTicketFor(
  ctx: PluginContext,
  user: SessionUser,
  contact: Contact,
  source: TicketModel,
): Promise<TicketModel> {
  const find = () =>
    TicketModel.query()
      .where({ contactId: contact.id })
      .whereNot('status', 'closed')
      .whereRaw('coalesce(whatsapp_id, 0) = ?', [source.whatsappId ?? 0])
      .first();
  const existing = await find();
  if (existing) return existing;
  try {
    const created = await ctx.db.transaction(async (trx) => {
      const ticket = await TicketModel.query(trx).insertAndFetch({
        contactId: contact.id,
        status: contact.isGroup ? 'group' : 'open',
        userId: user.id,
        queueId: source.queueId,
        whatsappId: source.whatsappId,
        channel: source.channel,
        isGroup: contact.isGroup,
      });
      await trx('ticketLogs').insert({
        companyId: user.companyId,
        ticketId: ticket.id,
        type: 'create',
        userId: user.id,
        queueId: ticket.queueId,
      });
      return ticket;
    });
    await notifyTicketChanged(ctx, user.companyId, created.id, null);
    return created;
  } catch (error) {
    // another request opened it meanwhile (one active ticket per contact and connection)
    const raced = await find();
    if (raced) return raced;
    throw error;
  }
}

/**
 * `GET /messages-allMe`: how many messages the caller's tickets hold (optionally only sent or only
 * received ones) between two dates, as the documented client reads it: `{ count: [{ count }] }`.
 */
export async function countMyMessages(
  ctx: PluginContext,
  user: SessionUser,
  query: { fromMe?: boolean; dateStart?: string; dateEnd?: string },
): Promise<{ count: Array<{ count: number }> }> {
  const q = ctx.db
    .knex('messages as m')
    .join('tickets as t', (join) => {
      join.on('t.id', 'm.ticketId').andOn('t.companyId', 'm.companyId');
    })
    .where({ 'm.companyId': user.companyId, 't.userId': user.id });
  if (query.fromMe !== undefined) q.where('m.fromMe', query.fromMe);
  if (query.dateStart) q.where('m.createdAt', '>=', dayStart(query.dateStart));
  if (query.dateEnd) q.where('m.createdAt', '<', dayEnd(query.dateEnd));
  const row = await q.count({ count: '*' }).first();
  return { count: [{ count: Number(row?.count ?? 0) }] };
}

/** A date (`YYYY-MM-DD`, the start of that day in UTC) or a full timestamp. */
function dayStart(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
}

/** The end of a date (exclusive: the next day's start) or a full timestamp (exclusive past it by 1 ms). */
function dayEnd(value: string): Date {
  const start = dayStart(value);
  return new Date(start.getTime() + (value.length === 10 ? 86_400_000 : 1));
}
