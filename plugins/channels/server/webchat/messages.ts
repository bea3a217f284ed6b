import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { WebchatAuthor, WebchatMessage } from '../../shared/webchat';
import type { VisitorRow } from './sessions';
import type { WidgetConnection } from './widgets';

/**
 * The visitor's conversation as the widget sees it: the public messages of their tickets on this
 * connection. Never private notes, never another contact's ticket, never an agent's data beyond the name.
 */

/** Channel ids of the messages a visitor sends: `v:<visitorId>:<clientId>` (a retry is the same id). */
export const visitorMessageId = (visitorId: number, clientId: string) => `v:${visitorId}:${clientId}`;
/** Channel ids of the company's messages: `a:<message id>`. */
export const companyMessageId = (messageId: number) => `a:${messageId}`;

/** The columns a WebchatMessage is made of (messages joined with their author's name). */
export interface MessageRowForWidget {
  id: number | string;
  channelMessageId: string | null;
  fromMe: boolean;
  userId: number | null;
  userName: string | null;
  body: string;
  mediaType: string;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: Date | string;
  isEdited: boolean;
  isDeleted: boolean;
  read: boolean;
  ack: number;
  reactions: unknown;
}

const COLUMNS = [
  'm.id',
  'm.channelMessageId',
  'm.fromMe',
  'm.userId',
  'u.name as userName',
  'm.body',
  'm.mediaType',
  'm.mediaPath',
  'm.mediaName',
  'm.createdAt',
  'm.isEdited',
  'm.isDeleted',
  'm.read',
  'm.ack',
  'm.reactions',
];

/** Messages of the company with their author's display name, nothing else of the user. */
export function messagesQuery(knex: Knex, companyId: number): Knex.QueryBuilder {
  return knex('messages as m')
    .leftJoin('users as u', 'u.id', 'm.userId')
    .where('m.companyId', companyId)
    .where('m.isPrivate', false)
    .select(COLUMNS);
}

/** A signed address the visitor's browser loads a file from (no session needed; it expires). */
function mediaUrl(ctx: PluginContext, companyId: number, row: MessageRowForWidget): string | null {
  if (!row.mediaPath || row.isDeleted) return null;
  const url = ctx.storage.signedUrl(companyId, row.mediaPath, row.mediaName ? { fileName: row.mediaName } : {});
  return url.startsWith('/') ? `${ctx.config.publicUrl.replace(/\/$/, '')}${url}` : url;
}

export function widgetMessage(
  ctx: PluginContext,
  companyId: number,
  row: MessageRowForWidget,
  overrides: Partial<WebchatMessage> = {},
): WebchatMessage {
  const author: WebchatAuthor = !row.fromMe ? 'visitor' : row.userId !== null ? 'agent' : 'bot';
  const clientId =
    !row.fromMe && row.channelMessageId?.startsWith('v:') ? row.channelMessageId.split(':').slice(2).join(':') : null;
  const reactions = Array.isArray(row.reactions) ? (row.reactions as Array<{ type?: unknown; fromMe?: unknown }>) : [];
  return {
    id: String(row.id),
    clientId,
    author,
    authorName: author === 'agent' ? row.userName : null,
    body: row.isDeleted ? '' : row.body,
    mediaType: row.mediaType,
    mediaUrl: mediaUrl(ctx, companyId, row),
    fileName: row.isDeleted ? null : row.mediaName,
    createdAt: new Date(row.createdAt).toISOString(),
    isEdited: row.isEdited,
    isDeleted: row.isDeleted,
    reactions: reactions
      .filter((reaction) => typeof reaction.type === 'string' && reaction.type !== '')
      .map((reaction) => ({ emoji: reaction.type as string, mine: reaction.fromMe === false })),
    // the visitor's own messages: read once an agent opened the ticket, else delivered to the company
    ack: row.fromMe ? row.ack : row.read ? 5 : 2,
    ...overrides,
  };
}

/** The visitor's tickets on this connection (through their contact). */
function visitorTickets(knex: Knex, widget: WidgetConnection, visitor: VisitorRow): Knex.QueryBuilder {
  return knex('tickets')
    .where({ companyId: widget.companyId, whatsappId: widget.id, contactId: visitor.contactId ?? -1 })
    .select('id');
}

/**
 * `GET messages`: a page of the visitor's conversation, newest page first, each page oldest→newest.
 * Company messages appear once delivered (`sendStatus` sent), as the visitor's stream got them.
 */
export async function listVisitorMessages(
  ctx: PluginContext,
  widget: WidgetConnection,
  visitor: VisitorRow,
  before: string | undefined,
  limit: number,
): Promise<{ messages: WebchatMessage[]; hasMore: boolean }> {
  if (visitor.contactId === null) return { messages: [], hasMore: false };
  const { knex } = ctx.db;
  const query = messagesQuery(knex, widget.companyId)
    .whereIn('m.ticketId', visitorTickets(knex, widget, visitor))
    .where((q) => q.where('m.fromMe', false).orWhere('m.sendStatus', 'sent'))
    .orderBy('m.id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) query.where('m.id', '<', before);
  const rows = (await query) as MessageRowForWidget[];
  const hasMore = rows.length > limit;
  return {
    messages: rows
      .slice(0, limit)
      .reverse()
      .map((row) => widgetMessage(ctx, widget.companyId, row)),
    hasMore,
  };
}

/** One message of the company by id, as the widget sees it (null when gone or private). */
export async function loadWidgetMessage(
  ctx: PluginContext,
  companyId: number,
  messageId: number | string,
): Promise<WebchatMessage | null> {
  const row = (await messagesQuery(ctx.db.knex, companyId).where('m.id', messageId).first()) as MessageRowForWidget | undefined;
  return row ? widgetMessage(ctx, companyId, row) : null;
}

/** The raw row of a message on a connection by its channel id. */
export async function rowByChannelId(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  channelMessageId: string,
): Promise<(MessageRowForWidget & { ticketId: number }) | undefined> {
  return (await messagesQuery(ctx.db.knex, companyId)
    .where({ 'm.whatsappId': connectionId, 'm.channelMessageId': channelMessageId })
    .select('m.ticketId')
    .first()) as (MessageRowForWidget & { ticketId: number }) | undefined;
}

/**
 * `POST read`: the company's messages of the visitor's tickets up to `upToId` are read: their acks go
 * to 5 through the inbox (which tells the agents).
 */
export async function markVisitorRead(
  ctx: PluginContext,
  widget: WidgetConnection,
  visitor: VisitorRow,
  upToId: string,
): Promise<void> {
  if (visitor.contactId === null) return;
  const { knex } = ctx.db;
  const rows = (await knex('messages')
    .where({ companyId: widget.companyId, whatsappId: widget.id, fromMe: true, isPrivate: false })
    .whereIn('ticketId', visitorTickets(knex, widget, visitor))
    .where('id', '<=', upToId)
    .where('ack', '<', 5)
    .whereNotNull('channelMessageId')
    .orderBy('id', 'desc')
    .limit(200)
    .select('channelMessageId')) as Array<{ channelMessageId: string }>;
  const inbox = ctx.services.use('inbox');
  for (const row of rows) {
    await inbox.updateAck({ companyId: widget.companyId, whatsappId: widget.id, channelMessageId: row.channelMessageId, ack: 5 });
  }
}

/** Company messages a visitor's stream had not received yet become delivered (2) when it opens. */
export async function markVisitorDelivered(ctx: PluginContext, widget: WidgetConnection, visitor: VisitorRow): Promise<void> {
  if (visitor.contactId === null) return;
  const { knex } = ctx.db;
  const rows = (await knex('messages')
    .where({ companyId: widget.companyId, whatsappId: widget.id, fromMe: true, isPrivate: false, sendStatus: 'sent' })
    .whereIn('ticketId', visitorTickets(knex, widget, visitor))
    .where('ack', '<', 2)
    .whereNotNull('channelMessageId')
    .orderBy('id', 'desc')
    .limit(200)
    .select('channelMessageId')) as Array<{ channelMessageId: string }>;
  const inbox = ctx.services.use('inbox');
  for (const row of rows) {
    await inbox.updateAck({ companyId: widget.companyId, whatsappId: widget.id, channelMessageId: row.channelMessageId, ack: 2 });
  }
}

/** The visitor's open ticket on this connection (for typing notices), or null. */
export async function openTicketOf(ctx: PluginContext, widget: WidgetConnection, visitor: VisitorRow): Promise<number | null> {
  if (visitor.contactId === null) return null;
  const row = await ctx.db
    .knex('tickets')
    .where({ companyId: widget.companyId, whatsappId: widget.id, contactId: visitor.contactId })
    .whereNot('status', 'closed')
    .orderBy('id', 'desc')
    .first('id');
  return row ? Number(row.id) : null;
}

export function requireBody(body: string | undefined, hasFile: boolean): string {
  const text = body ?? '';
  if (!hasFile && text.trim() === '') {
    throw new AppError('ERR_WEBCHAT_INVALID_MESSAGE', { details: [{ field: 'body.body', message: 'is empty' }] });
  }
  return text;
}
