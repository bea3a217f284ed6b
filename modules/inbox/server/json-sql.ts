import type { PluginContext } from '@balcao/plugin-sdk/server';
import { maskNumber } from './tickets/serializer';

/**
 * The hot reads (GET /tickets, GET /messages/:ticketUuid) answer JSON text rendered straight from raw
 * columns: the statement reads each value as Postgres writes it (no type parsing, rows as arrays), and a
 * renderer here writes the API's shape in the key order of the response schemas, which the route sends as
 * it is. Building objects (parsing dates, camelizing, `ticketFromRow`) and serialising them again cost
 * more server CPU than the query, and building the JSON in Postgres (json_build_object, row_to_json) costs
 * it about 15 µs a row (docs/benchmarks.md, "Inbox"). The shapes are exactly those of `ticketFromRow` and the
 * message serializer; `json-render.test.ts` compares both on the same rows.
 */

/** The content type of a JSON text a route sends as it is (Fastify serialises nothing then). */
export const JSON_TEXT = 'application/json; charset=utf-8';

/** The JSON text of a `T`. */
export type JsonText<T> = string & { readonly __json?: T };

/** A timestamptz as `Date.prototype.toISOString` writes it after node-pg read it: UTC, milliseconds truncated. */
export function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A timestamptz as the text of its UTC time ("2024-05-01 10:00:00.123987", the fraction trimmed of zeros or
 * absent), which `isoOfUtcText` writes as `isoSql` would: Postgres outputs a timestamp for a fraction of
 * the cost of `to_char`'s formatting, two per ticket of a page. The text is DateStyle ISO's, Postgres'
 * default, which node-pg's own timestamp parsing needs as well.
 */
export function utcTextSql(column: string): string {
  return `(${column} AT TIME ZONE 'UTC')`;
}

/** The text of `utcTextSql` as `Date.prototype.toISOString` writes it: milliseconds truncated, `Z`. */
export function isoOfUtcText(text: string): string {
  const milliseconds = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${milliseconds}Z`;
}

/** A raw value: Postgres' text of it, or null. */
type Raw = string | null;

const str = (value: Raw): string => (value === null ? 'null' : JSON.stringify(value));
/** An integer's text is its JSON. */
const int = (value: Raw): string => (value === null ? 'null' : value);
const bool = (value: Raw): string => (value === null ? 'null' : value === 't' ? 'true' : 'false');

/**
 * The columns of a ticket `t` joined as `TICKET_ROW_JOINS` (contact `c`, queue `q`, user `u`, rating `r`), in
 * the order `renderTicket` reads them from `at`. Tags come rendered, from the ids on the ticket's row
 * (migration 0003; most tickets have none and cost nothing).
 */
export const TICKET_RENDER_COLUMNS = `t.id, t.uuid, t.status, t.channel, t.is_group, t.is_bot, t.queue_id, q.id, q.name,
  q.color, t.user_id, u.id, u.name, t.contact_id, c.id, c.name, c.number, c.email, c.url_picture, c.is_group, c.channel,
  c.disable_bot, c.active, t.whatsapp_id, t.last_message, t.unread_messages,
  CASE WHEN cardinality(t.tag_ids) > 0 THEN (
    SELECT '[' || string_agg('{"id":' || tg.id || ',"name":' || to_json(tg.name) || ',"color":' || to_json(tg.color) || '}',
      ',' ORDER BY tg.name) || ']'
    FROM tags tg WHERE tg.id = ANY(t.tag_ids) AND tg.company_id = t.company_id) END,
  r.rate, t.use_integration, t.amount_used_bot_queues, ${utcTextSql('t.created_at')}, ${utcTextSql('t.updated_at')}`;

/** How many columns `TICKET_RENDER_COLUMNS` are. */
export const TICKET_RENDER_WIDTH = 32;

/**
 * A raw row's value. A module-level function rather than an accessor closed over the row: the bundle keeps
 * function names (esbuild `keepNames`), which names every closure each time one is created — for a
 * per-ticket accessor, ~2 % of the server's CPU on a tab (profiled).
 */
const cell = (row: Raw[], index: number): Raw => row[index] as Raw;

/** The ticket of `TICKET_RENDER_COLUMNS` at `at` of a raw row, as the JSON text of the API's `Ticket`. */
export function renderTicket(row: Raw[], at: number, mask: boolean): string {
  const contactIsGroup = row[at + 19] === 't';
  const number = mask && !contactIsGroup ? maskNumber(cell(row, at + 16)) : cell(row, at + 16);
  const queueId = cell(row, at + 7);
  const userId = cell(row, at + 11);
  const rate = cell(row, at + 27);
  return (
    `{"id":${cell(row, at)},"uuid":"${cell(row, at + 1)}","status":${str(cell(row, at + 2))},"channel":${str(cell(row, at + 3))},` +
    `"isGroup":${bool(cell(row, at + 4))},"isBot":${bool(cell(row, at + 5))},"queueId":${int(cell(row, at + 6))},` +
    `"queue":${queueId === null ? 'null' : `{"id":${queueId},"name":${str(cell(row, at + 8))},"color":${str(cell(row, at + 9))}}`},` +
    `"userId":${int(cell(row, at + 10))},"user":${userId === null ? 'null' : `{"id":${userId},"name":${str(cell(row, at + 12))}}`},` +
    `"contactId":${cell(row, at + 13)},"contact":{"id":${cell(row, at + 14)},"name":${str(cell(row, at + 15))},"number":${str(number)},` +
    `"email":${str(cell(row, at + 17))},"urlPicture":${str(cell(row, at + 18))},"isGroup":${bool(cell(row, at + 19))},` +
    `"channel":${str(cell(row, at + 20))},"disableBot":${bool(cell(row, at + 21))},"active":${bool(cell(row, at + 22))}},` +
    `"whatsappId":${int(cell(row, at + 23))},"whatsapp":null,"lastMessage":${str(cell(row, at + 24))},` +
    `"unreadMessages":${cell(row, at + 25)},"tags":${cell(row, at + 26) ?? '[]'},"userRating":${rate === null ? 'null' : `{"rate":${rate}}`},` +
    `"useIntegration":${bool(cell(row, at + 28))},"amountUsedBotQueues":${cell(row, at + 29)},` +
    `"createdAt":"${isoOfUtcText(cell(row, at + 30) as string)}","updatedAt":"${isoOfUtcText(cell(row, at + 31) as string)}"}`
  );
}

/**
 * A message `m` and its contact `mc` as the columns of the API's `Message` (but `quotedMsg`), named as its
 * keys and in their order, for Postgres to write as JSON (`row_to_json`, `json_agg`). `mediaUrl` is a mark
 * that `withMediaUrls` replaces by the signed address; reactions are rewritten in the schema's key order.
 */
export function messageJsonFields(m: string, mc: string): string {
  return `${m}.id AS "id", ${m}.body AS "body", ${m}.from_me AS "fromMe", ${m}.ack AS "ack", ${m}.media_type AS "mediaType",
    CASE WHEN ${m}.media_path IS NULL OR ${m}.media_path = '' THEN NULL ELSE ('"\\u0000m' || ${m}.id || '"')::json END AS "mediaUrl",
    ${m}.media_name AS "mediaName", ${m}.is_deleted AS "isDeleted", ${m}.is_edited AS "isEdited",
    ${m}.is_forwarded AS "isForwarded", ${m}.is_private AS "isPrivate", ${m}.quoted_msg_id AS "quotedMsgId",
    CASE WHEN ${m}.reactions IS NULL OR ${m}.reactions = '[]'::jsonb THEN '[]'::json
    ELSE (SELECT ('[' || string_agg('{"type":' || coalesce(e->'type', 'null')::text || ',"fromMe":' || coalesce(e->'fromMe', 'null')::text
      || ',"userId":' || coalesce(e->'userId', 'null')::text || ',"contactId":' || coalesce(e->'contactId', 'null')::text || '}',
      ',' ORDER BY n) || ']')::json FROM jsonb_array_elements(${m}.reactions) WITH ORDINALITY a(e, n)) END AS "reactions",
    ${m}.send_status AS "sendStatus", ${m}.send_error AS "sendError", ${m}.ticket_id AS "ticketId",
    ${m}.contact_id AS "contactId",
    CASE WHEN ${m}.contact_id IS NOT NULL AND ${mc}.name IS NOT NULL
      THEN json_build_object('id', ${m}.contact_id, 'name', ${mc}.name, 'urlPicture', ${mc}.url_picture) END AS "contact",
    ${m}.user_id AS "userId", ${m}.queue_id AS "queueId", ${isoSql(`${m}.created_at`)} AS "createdAt",
    ${isoSql(`${m}.updated_at`)} AS "updatedAt"`;
}

/** The keys of a `Message` with its quoted message, as the columns `messageJsonFields` (and `quotedMsg`) name. */
export const MESSAGE_JSON_KEYS = [
  'id',
  'body',
  'fromMe',
  'ack',
  'mediaType',
  'mediaUrl',
  'mediaName',
  'isDeleted',
  'isEdited',
  'isForwarded',
  'isPrivate',
  'quotedMsgId',
  'reactions',
  'sendStatus',
  'sendError',
  'ticketId',
  'contactId',
  'contact',
  'userId',
  'queueId',
  'createdAt',
  'updatedAt',
  'quotedMsg',
]
  .map((key) => `"${key}"`)
  .join(', ');

/**
 * Where a message's signed `mediaUrl` goes: Postgres can't sign, so it writes the JSON string `"\u0000m<id>"`
 * (a NUL can't be in a text value, so no stored text ever renders like this) and `withMediaUrls` replaces it.
 */
const MEDIA_MARK = /"\\u0000m(\d+)"/g;

/** A media reference of a rendered message: id, storage key, file name. */
export type MediaRef = [id: number | string, path: string, name: string | null];

/**
 * The JSON text with every media mark replaced by the message's signed address (`sign`: the storage's
 * `signedUrl` of the company). Text without media comes back as it is.
 */
export function withMediaUrls(
  json: string,
  media: MediaRef[] | null,
  sign: (path: string, options: { fileName?: string }) => string,
): string {
  if (!media || media.length === 0) return json;
  const byId = new Map(media.map(([id, path, name]) => [String(id), { path, name }]));
  return json.replace(MEDIA_MARK, (_mark, id: string) => {
    const ref = byId.get(id);
    return ref ? JSON.stringify(sign(ref.path, ref.name ? { fileName: ref.name } : {})) : 'null';
  });
}

/** The storage's signer of one company's media addresses. */
export function signerOf(ctx: PluginContext, companyId: number) {
  return (path: string, options: { fileName?: string }) => ctx.storage.signedUrl(companyId, path, options);
}
