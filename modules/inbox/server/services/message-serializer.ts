import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { Ack, MediaType, Message, MessageReaction, SendStatus } from '../../shared/types';
import { camelize } from './camel-keys';
import { TICKET_ROW_COLUMNS, TICKET_ROW_JOINS, type TicketRow } from './ticket-serializer';

/** A `messages` row with camelCase keys (as a builder or objection returns it). */
export interface MessageRecord {
  id: number | string;
  body: string;
  fromMe: boolean;
  ack: number;
  mediaType: MediaType;
  mediaPath: string | null;
  mediaName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  isPrivate: boolean;
  quotedMsgId: number | string | null;
  reactions: MessageReaction[] | null;
  sendStatus: SendStatus;
  sendError: string | null;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  queueId: number | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** A message row with its contact's name and picture. */
type RowWithContact = MessageRecord & { contactName: string | null; contactUrlPicture: string | null };

/** The raw row of the message query: the message, its contact and the message it quotes (one level). */
interface MessageRow extends RowWithContact {
  /** The quoted message, as a JSON object built by Postgres (timestamps as strings). */
  quotedJson: RowWithContact | null;
}

/** What a page query of one ticket's messages asks for. */
export interface MessagePageQuery {
  ticketId: number;
  /** Rows to skip from the newest. */
  offset: number;
  limit: number;
  /** Leave out deleted messages (LGPD delete hiding). */
  hideDeleted: boolean;
}

const COLUMNS = [
  'm.id',
  'm.body',
  'm.fromMe',
  'm.ack',
  'm.mediaType',
  'm.mediaPath',
  'm.mediaName',
  'm.isDeleted',
  'm.isEdited',
  'm.isForwarded',
  'm.isPrivate',
  'm.quotedMsgId',
  'm.reactions',
  'm.sendStatus',
  'm.sendError',
  'm.ticketId',
  'm.contactId',
  'm.userId',
  'm.queueId',
  'm.createdAt',
  'm.updatedAt',
  'c.name as contactName',
  'c.urlPicture as contactUrlPicture',
];

// The quoted message in the same row: one level only (its own quotedMsg is left out by the shape).
const QUOTED_JSON = `CASE WHEN q.id IS NULL THEN NULL ELSE json_build_object(
  'id', q.id, 'body', q.body, 'fromMe', q.from_me, 'ack', q.ack, 'mediaType', q.media_type,
  'mediaPath', q.media_path, 'mediaName', q.media_name, 'isDeleted', q.is_deleted, 'isEdited', q.is_edited,
  'isForwarded', q.is_forwarded, 'isPrivate', q.is_private, 'quotedMsgId', q.quoted_msg_id,
  'reactions', q.reactions, 'sendStatus', q.send_status, 'sendError', q.send_error, 'ticketId', q.ticket_id,
  'contactId', q.contact_id, 'userId', q.user_id, 'queueId', q.queue_id, 'createdAt', q.created_at,
  'updatedAt', q.updated_at, 'contactName', qc.name, 'contactUrlPicture', qc.url_picture) END as quoted_json`;

function baseQuery(knex: Knex, companyId: number): Knex.QueryBuilder {
  return knex('messages as m')
    .where('m.companyId', companyId)
    .leftJoin('contacts as c', 'c.id', 'm.contactId')
    .leftJoin('messages as q', (join) => {
      join.on('q.id', 'm.quotedMsgId').andOn('q.companyId', 'm.companyId');
    })
    .leftJoin('contacts as qc', 'qc.id', 'q.contactId')
    .select([...COLUMNS, knex.raw(QUOTED_JSON)]);
}

const iso = (value: Date | string): string => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());
const toId = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toMessage(ctx: PluginContext, companyId: number, row: RowWithContact): Omit<Message, 'quotedMsg'> {
  return {
    id: Number(row.id),
    body: row.body,
    fromMe: row.fromMe,
    ack: row.ack as Ack,
    mediaType: row.mediaType,
    mediaUrl: row.mediaPath
      ? ctx.storage.signedUrl(companyId, row.mediaPath, row.mediaName ? { fileName: row.mediaName } : {})
      : null,
    mediaName: row.mediaName,
    isDeleted: row.isDeleted,
    isEdited: row.isEdited,
    isForwarded: row.isForwarded,
    isPrivate: row.isPrivate,
    quotedMsgId: toId(row.quotedMsgId),
    reactions: row.reactions ?? [],
    sendStatus: row.sendStatus,
    sendError: row.sendError,
    ticketId: row.ticketId,
    contactId: row.contactId,
    contact:
      row.contactId !== null && row.contactName !== null
        ? { id: row.contactId, name: row.contactName, urlPicture: row.contactUrlPicture }
        : null,
    userId: row.userId,
    queueId: row.queueId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * A message in the API shape from a row already at hand (a fresh insert), with its contact's name and
 * picture and the quoted message (or null) — no query.
 */
export function messageFromRecord(
  ctx: PluginContext,
  companyId: number,
  record: MessageRecord,
  contact: { name: string; urlPicture: string | null } | null,
  quotedMsg: Omit<Message, 'quotedMsg'> | null = null,
): Message {
  return {
    ...toMessage(ctx, companyId, {
      ...record,
      contactName: contact?.name ?? null,
      contactUrlPicture: contact?.urlPicture ?? null,
    }),
    quotedMsg,
  };
}

function fromRow(ctx: PluginContext, companyId: number, row: MessageRow): Message {
  const { quotedJson, ...own } = row;
  return {
    ...toMessage(ctx, companyId, own),
    quotedMsg: quotedJson ? toMessage(ctx, companyId, quotedJson) : null,
  };
}

/**
 * Loads messages as the API shows them (1-core §3 Message): the quoted message (one level), the contact
 * reference, a signed `mediaUrl` (only ever for `companyId`'s own files) and the reactions.
 *
 * - `ids`: those messages, in the order given (missing ones left out);
 * - a page query: one ticket's page, newest page first, each page in chronological order.
 */
export async function loadMessages(ctx: PluginContext, companyId: number, what: number[] | MessagePageQuery): Promise<Message[]> {
  const { knex } = ctx.db;
  if (Array.isArray(what)) {
    if (what.length === 0) return [];
    const rows = (await baseQuery(knex, companyId).whereIn('m.id', what)) as MessageRow[];
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return what.flatMap((id) => {
      const row = byId.get(id);
      return row ? [fromRow(ctx, companyId, row)] : [];
    });
  }
  const query = baseQuery(knex, companyId)
    .where('m.ticketId', what.ticketId)
    .orderBy([
      { column: 'm.createdAt', order: 'desc' },
      { column: 'm.id', order: 'desc' },
    ])
    .limit(what.limit)
    .offset(what.offset);
  if (what.hideDeleted) query.where('m.isDeleted', false);
  const rows = (await query) as MessageRow[];
  return rows.reverse().map((row) => fromRow(ctx, companyId, row));
}

/** One message, or null when it doesn't exist in the company. */
export async function loadMessage(ctx: PluginContext, companyId: number, id: number): Promise<Message | null> {
  const [message] = await loadMessages(ctx, companyId, [id]);
  return message ?? null;
}

/**
 * The statement of `loadTicketPage`: the ticket by uuid (the columns of `loadTicket`), one page of its
 * messages (the shape of `loadMessages`, chronological) and their count, in one round trip. Two fixed
 * texts (with or without deleted messages) so that each is prepared once per connection and the count
 * stays an index-only scan, which a `NOT ($n AND is_deleted)` in a generic plan would not allow.
 */
function ticketPageSql(hideDeleted: boolean): string {
  const visible = hideDeleted ? 'AND NOT m.is_deleted' : '';
  return `WITH t AS (
      SELECT ${TICKET_ROW_COLUMNS} FROM tickets t ${TICKET_ROW_JOINS}
      WHERE t.company_id = ? AND t.uuid = ?::uuid
    ), page AS (
      SELECT m.id, m.body, m.from_me, m.ack, m.media_type, m.media_path, m.media_name, m.is_deleted, m.is_edited,
        m.is_forwarded, m.is_private, m.quoted_msg_id, m.reactions, m.send_status, m.send_error, m.ticket_id,
        m.contact_id, m.user_id, m.queue_id, m.created_at, m.updated_at, c.name AS contact_name,
        c.url_picture AS contact_url_picture, ${QUOTED_JSON}
      FROM messages m
      LEFT JOIN contacts c ON c.id = m.contact_id
      LEFT JOIN messages q ON q.id = m.quoted_msg_id AND q.company_id = m.company_id
      LEFT JOIN contacts qc ON qc.id = q.contact_id
      WHERE m.company_id = ? AND m.ticket_id = (SELECT id FROM t) ${visible}
      ORDER BY m.created_at DESC, m.id DESC
      LIMIT ? OFFSET ?
    )
    SELECT (SELECT row_to_json(t) FROM t) AS ticket,
      (SELECT json_agg(page ORDER BY page.created_at, page.id) FROM page) AS messages,
      (SELECT count(*) FROM messages m WHERE m.company_id = ? AND m.ticket_id = (SELECT id FROM t) ${visible}) AS count`;
}

/** A ticket (unmasked row), one page of its messages and their count. */
export interface TicketPage {
  ticketRow: TicketRow;
  /** The page, chronological. */
  messages: Message[];
  count: number;
}

/**
 * The ticket of a uuid with one page of its messages (newest page first, each chronological; see
 * `MessagePageQuery`) and how many it has, in one prepared statement; null when the company has no such
 * ticket. The caller decides whether the reader may see it before answering any of it.
 */
export async function loadTicketPage(
  ctx: PluginContext,
  companyId: number,
  ticketUuid: string,
  page: Omit<MessagePageQuery, 'ticketId'>,
): Promise<TicketPage | null> {
  const result = (await ctx.db.knex
    .raw(ticketPageSql(page.hideDeleted), [companyId, ticketUuid, companyId, page.limit, page.offset, companyId])
    .options({ name: page.hideDeleted ? 'inbox_ticket_page_visible' : 'inbox_ticket_page' })) as {
    rows: Array<{ ticket: Record<string, unknown> | null; messages: Array<Record<string, unknown>> | null; count: string }>;
  };
  const [row] = result.rows;
  if (!row?.ticket) return null;
  return {
    ticketRow: camelize<TicketRow>(row.ticket),
    messages: (row.messages ?? []).map((message) => fromRow(ctx, companyId, camelize<MessageRow>(message))),
    count: Number(row.count),
  };
}
