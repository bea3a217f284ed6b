import { type BatcherStats, type PluginContext, perInstance, StatementBatcher } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { Ack, MediaType, Message, MessageReaction, SendStatus, Ticket } from '../../shared/types';
import {
  MESSAGE_JSON_KEYS,
  type MediaRef,
  messageJsonFields,
  renderTicket,
  signerOf,
  TICKET_RENDER_COLUMNS,
  withMediaUrls,
} from '../json-sql';
import { rawRows, type Statement } from '../prepared';
import { TICKET_ROW_JOINS } from '../tickets/serializer';

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
 * Loads messages as the API shows them (docs/product/tickets-and-inbox.md#entities Message): the quoted message (one level), the contact
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

/** The visibility fields of the ticket of a page (and what marking it read needs). */
export interface PageTicket {
  id: number;
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
  status: Ticket['status'];
  unreadMessages: number;
}

/**
 * The statement of `loadTicketPageJson`: the ticket by uuid, one page of its messages (newest page first;
 * `$3` rows from `$4`, the page being the newest `$5` of them) with the messages they quote, and their
 * count, in one round trip and one row: the ticket's visibility fields, the count, how many rows the page
 * read, the page's messages as the JSON text of the API's `Message[]` (chronological; aggregated by
 * `json_agg`, Postgres' cheap way of writing many rows of one shape), the media to sign, and the ticket's
 * columns to render (`TICKET_RENDER_COLUMNS`). Two fixed texts (deleted messages hidden or not), each
 * prepared once per connection; the count stays an index-only scan, which a `NOT ($n AND is_deleted)` in a
 * generic plan would not allow.
 */
function ticketPageSql(hideDeleted: boolean): string {
  const visible = hideDeleted ? 'AND NOT m.is_deleted' : '';
  return `WITH tk AS (
      SELECT * FROM tickets t WHERE t.company_id = $1 AND t.uuid = $2::uuid
    ), page AS (
      SELECT m.id AS _id, m.created_at AS _at, m.media_path AS _path, m.media_name AS _name, q.id AS _qid,
        q.media_path AS _qpath, q.media_name AS _qname, ${messageJsonFields('m', 'c')},
        CASE WHEN q.id IS NULL THEN NULL ELSE (SELECT row_to_json(z) FROM (SELECT ${messageJsonFields('q', 'qc')}) z) END
          AS "quotedMsg"
      FROM messages m
      LEFT JOIN contacts c ON c.id = m.contact_id
      LEFT JOIN messages q ON q.id = m.quoted_msg_id AND q.company_id = m.company_id
      LEFT JOIN contacts qc ON qc.id = q.contact_id
      WHERE m.company_id = $1 AND m.ticket_id = (SELECT id FROM tk) ${visible}
      ORDER BY m.created_at DESC, m.id DESC
      LIMIT $3 OFFSET $4
    )
    SELECT t.id, t.user_id, t.queue_id, t.is_group, t.status, t.unread_messages,
      (SELECT count(*) FROM messages m WHERE m.company_id = $1 AND m.ticket_id = t.id ${visible}),
      (SELECT count(*) FROM page),
      (SELECT json_agg(x)::text FROM (
        SELECT ${MESSAGE_JSON_KEYS} FROM (SELECT * FROM page ORDER BY _at DESC, _id DESC LIMIT $5) p ORDER BY _at, _id) x),
      (SELECT json_agg(json_build_array(r.id, r.path, r.name)) FROM (
        SELECT _id, _path, _name FROM page WHERE _path <> '' UNION SELECT _qid, _qpath, _qname FROM page WHERE _qpath <> ''
      ) r(id, path, name)),
      ${TICKET_RENDER_COLUMNS}
    FROM tk t ${TICKET_ROW_JOINS}`;
}

/** Where the ticket's columns start in the row of `ticketPageSql`. */
const PAGE_TICKET = 10;

const PAGE_STATEMENTS = [false, true].map((hideDeleted) => ({
  name: `inbox_ticket_page_json${hideDeleted ? '_visible' : ''}`,
  text: ticketPageSql(hideDeleted),
}));

/**
 * The statement of `ticketPageSql` for several pages at once (see `pageBatchers`): each page's ticket
 * (`$2`), of its company (`$1`), through a LATERAL join, all pages of one size and offset (`$3`–`$5`);
 * a row per ticket found, led by the page's place in the arrays.
 */
const PAGE_BATCH_STATEMENTS = [false, true].map((hideDeleted) => ({
  name: `inbox_ticket_pages_json${hideDeleted ? '_visible' : ''}`,
  text: `SELECT u.i, p.* FROM unnest($1::int[], $2::uuid[]) WITH ORDINALITY AS u(company_id, uuid, i)
    CROSS JOIN LATERAL (${ticketPageSql(hideDeleted)
      .replace(/\$1(?!\d)/g, 'u.company_id')
      .replace(/\$2::uuid/g, 'u.uuid')}) p`,
}));

/** One page read, as `loadTicketPageJson` asks it. */
interface PageRead {
  companyId: number;
  ticketUuid: string;
  limit: number;
  offset: number;
  pageSize: number;
}

type PageRow = Array<string | null>;

/**
 * Reads of pages arriving while others are in flight leave together as one statement (a ticket list's
 * readers opening tickets at once): Postgres' cost of a page is more its statement's than its rows' — the
 * page statement is large — and one statement of 16 pages took less than half the time of 16 (measured,
 * docs/benchmarks.md "Inbox"). Pages of one batch share their company and their size and offset (page 1,
 * nearly always): each statement runs under row-level security for its company (docs/architecture.md#tenancy,
 * "Row-level security"), so a page finds nothing of another company even if its filter were lost.
 */
function companyPageBatchers(knex: Knex, companyId: number) {
  return [false, true].map((hide) => {
    const single = PAGE_STATEMENTS[hide ? 1 : 0] as Statement;
    const batch = PAGE_BATCH_STATEMENTS[hide ? 1 : 0] as Statement;
    return new StatementBatcher<PageRead, PageRow | null>({
      runOne: async (read) => {
        const [row] = await rawRows(
          knex,
          single,
          [read.companyId, read.ticketUuid, read.limit, read.offset, read.pageSize],
          companyId,
        );
        return row ?? null;
      },
      runMany: async (reads) => {
        const first = reads[0] as PageRead;
        // arrays as values: node-pg writes their literals, quoting each element (a uuid comes from the URL)
        const rows = await rawRows(
          knex,
          batch,
          [reads.map((read) => read.companyId), reads.map((read) => read.ticketUuid), first.limit, first.offset, first.pageSize],
          companyId,
        );
        const byPlace = new Map(rows.map((row) => [Number(row[0]), row.slice(1)]));
        return reads.map((_read, index) => byPlace.get(index + 1) ?? null);
      },
      conflicts: (earlier, read) =>
        earlier.limit !== read.limit || earlier.offset !== read.offset || earlier.pageSize !== read.pageSize,
      // one in flight: the next gathers everything that arrives meanwhile (measured: two read less per statement)
      maxInFlight: 1,
      maxBatch: 32,
    });
  });
}

type PageBatchers = ReturnType<typeof companyPageBatchers>;
const pageBatchers = perInstance((_knex: Knex) => new Map<number, PageBatchers>());
/** Companies whose batchers are kept: past it, the map starts again (the busy ones come straight back). */
const PAGE_COMPANIES = 1_000;

/** How the page reads of an app went: statements run, pages they read, the largest batch. */
export function pageReadStats(knex: Knex): BatcherStats {
  return StatementBatcher.totals([...pageBatchers(knex).values()].flat());
}

function pageBatcher(knex: Knex, companyId: number, hideDeleted: boolean): StatementBatcher<PageRead, PageRow | null> {
  const byCompany = pageBatchers(knex);
  let batchers = byCompany.get(companyId);
  if (!batchers) {
    if (byCompany.size >= PAGE_COMPANIES) byCompany.clear();
    batchers = companyPageBatchers(knex, companyId);
    byCompany.set(companyId, batchers);
  }
  return batchers[hideDeleted ? 1 : 0] as StatementBatcher<PageRead, PageRow | null>;
}

/**
 * The ticket of a uuid with one page of its messages (newest page first, each chronological: `pageSize`
 * of `limit` rows from `offset`; a row past the page tells that older pages exist) and how many it has, as
 * the JSON text of the answer `{ messages, ticket, count, hasMore }` (services/json-sql.ts: numbers masked
 * with `mask`, media addresses signed for `companyId`), with the ticket's visibility fields; null when the
 * company has no such ticket. The caller decides whether the reader may see it before answering any of it.
 */
export async function loadTicketPageJson(
  ctx: PluginContext,
  companyId: number,
  ticketUuid: string,
  page: { offset: number; limit: number; pageSize: number; hideDeleted: boolean; mask: boolean },
): Promise<{ ticket: PageTicket; json: string } | null> {
  const row = await pageBatcher(ctx.db.knex, companyId, page.hideDeleted).submit({
    companyId,
    ticketUuid,
    limit: page.limit,
    offset: page.offset,
    pageSize: page.pageSize,
  });
  if (!row) return null;
  const ticket: PageTicket = {
    id: Number(row[0]),
    userId: row[1] === null ? null : Number(row[1]),
    queueId: row[2] === null ? null : Number(row[2]),
    isGroup: row[3] === 't',
    status: row[4] as Ticket['status'],
    unreadMessages: Number(row[5]),
  };
  const media = row[9] == null ? null : (JSON.parse(row[9]) as MediaRef[]);
  const messages = withMediaUrls(row[8] ?? '[]', media, signerOf(ctx, companyId));
  return {
    ticket,
    json: `{"messages":${messages},"ticket":${renderTicket(row, PAGE_TICKET, page.mask)},"count":${row[6]},"hasMore":${Number(row[7]) > page.pageSize}}`,
  };
}
