import { perInstance, StatementBatcher } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { runStatement, type Statement } from '../prepared';
import { TICKET_ROW_COLUMNS, TICKET_ROW_JOINS } from '../tickets/serializer';

/**
 * The first statement of a receive (`insertOnKnownTicket` in inbox-service.ts) for many inbound messages
 * at once: for each, the contacts of its sender's identifiers with their active ticket on the connection;
 * when they are one contact with an active ticket, the message inserted (once per channel id) and the
 * ticket updated; else the contact of the number and the message stored already under the channel id.
 * Each row of the answer is what the one-message statement answers for that message.
 */

/** One inbound message of a batch, as the batch statement reads it (snake_case: `jsonb_to_record`). */
export interface KnownTicketInput {
  company_id: number;
  whatsapp_id: number;
  channel: string;
  identifiers: string[];
  /** How many identifiers the sender has: a contact is the sender's only when all of them are its. */
  count: number;
  number: string | null;
  channel_message_id: string;
  body: string;
  from_me: boolean;
  ack: number;
  read: boolean;
  media_type: string;
  media_path: string | null;
  media_name: string | null;
  quoted_id: string | null;
  /** The channel's extra data, as JSON text (or null). */
  data: string | null;
  created_at: Date;
  unread: number;
  last_message: string;
}

/** What the first statement of a receive answers for one message (one row of the batch statement). */
export interface KnownTicketRaw {
  found: Array<Record<string, unknown>> | null;
  message: Record<string, unknown> | null;
  targeted: boolean;
  ticket: Record<string, unknown> | null;
  by_number: Record<string, unknown> | null;
  prior: { id: string | number; ticket_id: number; uuid: string; contact_id: number } | null;
}

const LOOKUP_COLUMNS = `identifier, contact_id, name, url_picture, ticket_id, uuid, status, user_id, queue_id, ticket_is_group`;

/**
 * Tickets are locked in id order before they are updated, so two batches (of two processes) with tickets in common
 * wait for each other instead of deadlocking. A message is matched to its row by (connection, channel id),
 * unique within a batch (`conflicts` below). The ticket of several messages in one batch counts them all
 * unread and shows the last one; each of its messages answers the ticket as it is after the batch.
 */
const BATCH_STATEMENT: Statement = {
  name: 'inbox_receive_batch',
  text: `WITH input AS (
      SELECT x.*, ordinality AS i
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(item, ordinality),
        jsonb_to_record(e.item) AS x(company_id int, whatsapp_id int, channel text, identifiers text[], count int,
          number text, channel_message_id text, body text, from_me boolean, ack int, read boolean, media_type text,
          media_path text, media_name text, quoted_id text, data text, created_at timestamptz, unread int,
          last_message text)
    ), found AS (
      -- per message (LATERAL, kept apart by OFFSET 0): the unique index of identities, never a hash of them all
      SELECT x.i, f.*, count(*) OVER w AS known, min(f.contact_id) OVER w AS min_id, max(f.contact_id) OVER w AS max_id
      FROM input x
      CROSS JOIN LATERAL (
        SELECT ci.identifier, c.id AS contact_id, c.name, c.url_picture, t.id AS ticket_id, t.uuid, t.status,
          t.user_id, t.queue_id, t.is_group AS ticket_is_group
        FROM contact_identities ci
        JOIN contacts c ON c.id = ci.contact_id AND c.company_id = ci.company_id
        LEFT JOIN tickets t ON t.company_id = c.company_id AND t.contact_id = c.id
          AND coalesce(t.whatsapp_id, 0) = x.whatsapp_id AND t.status <> 'closed'
        WHERE ci.company_id = x.company_id AND ci.channel = x.channel AND ci.identifier = ANY (x.identifiers)
        OFFSET 0
      ) f
      WINDOW w AS (PARTITION BY x.i)
    ), found_by_message AS (
      SELECT f.i, json_agg(json_build_object(${jsonPairs(LOOKUP_COLUMNS, 'f')}, 'known', f.known, 'min_id', f.min_id,
        'max_id', f.max_id)) AS found
      FROM found f GROUP BY f.i
    ), target AS (
      SELECT DISTINCT ON (f.i) f.i, f.ticket_id, f.contact_id, f.queue_id
      FROM found f JOIN input x ON x.i = f.i
      WHERE f.ticket_id IS NOT NULL AND f.known = x.count AND f.min_id = f.max_id
      ORDER BY f.i
    ), by_number AS (
      -- no identifier known: the contact of the number, if any (a contact made by hand)
      SELECT x.i, b.*
      FROM input x
      LEFT JOIN found_by_message fm ON fm.i = x.i
      CROSS JOIN LATERAL (
        SELECT NULL::text AS identifier, c.id AS contact_id, c.name, c.url_picture, t.id AS ticket_id, t.uuid, t.status,
          t.user_id, t.queue_id, t.is_group AS ticket_is_group
        FROM contacts c
        LEFT JOIN tickets t ON t.company_id = c.company_id AND t.contact_id = c.id
          AND coalesce(t.whatsapp_id, 0) = x.whatsapp_id AND t.status <> 'closed'
        WHERE c.company_id = x.company_id AND c.number = x.number
        LIMIT 1
      ) b
      WHERE fm.i IS NULL
    ), prior AS (
      -- nothing to insert into: the message of this channel id, if stored already (a redelivery)
      SELECT x.i, p.*
      FROM input x
      LEFT JOIN target g ON g.i = x.i
      CROSS JOIN LATERAL (
        SELECT m.id, m.ticket_id, t.uuid, t.contact_id FROM messages m JOIN tickets t ON t.id = m.ticket_id
        WHERE m.company_id = x.company_id AND m.whatsapp_id = x.whatsapp_id AND m.channel_message_id = x.channel_message_id
        LIMIT 1
      ) p
      WHERE g.i IS NULL
    ), ins AS (
      INSERT INTO messages (company_id, ticket_id, contact_id, queue_id, whatsapp_id, channel_message_id, body, from_me,
        ack, read, media_type, media_path, media_name, quoted_msg_id, send_status, data_json, created_at, updated_at)
      SELECT x.company_id, g.ticket_id, g.contact_id, g.queue_id, x.whatsapp_id, x.channel_message_id, x.body, x.from_me,
        x.ack, x.read, x.media_type, x.media_path, x.media_name,
        (SELECT q.id FROM messages q
          WHERE q.company_id = x.company_id AND q.whatsapp_id = x.whatsapp_id AND q.channel_message_id = x.quoted_id LIMIT 1),
        'sent', x.data::jsonb, x.created_at, now()
      FROM input x JOIN target g ON g.i = x.i
      ORDER BY x.i
      ON CONFLICT (company_id, whatsapp_id, channel_message_id)
        WHERE channel_message_id IS NOT NULL AND whatsapp_id IS NOT NULL DO NOTHING
      RETURNING *
    ), inserted AS (
      SELECT x.i, m AS message, m.ticket_id, x.company_id, x.unread, x.last_message
      FROM ins m JOIN input x ON x.company_id = m.company_id AND x.whatsapp_id = m.whatsapp_id
        AND x.channel_message_id = m.channel_message_id
    ), per_ticket AS (
      SELECT ticket_id, company_id, sum(unread)::int AS unread, (array_agg(last_message ORDER BY i DESC))[1] AS last_message
      FROM inserted GROUP BY ticket_id, company_id
    ), locked AS (
      SELECT t.id FROM tickets t JOIN per_ticket p ON p.ticket_id = t.id AND p.company_id = t.company_id
      ORDER BY t.id FOR NO KEY UPDATE OF t
    ), upd AS (
      UPDATE tickets SET unread_messages = unread_messages + p.unread, last_message = p.last_message, updated_at = now()
      FROM per_ticket p JOIN locked l ON l.id = p.ticket_id
      WHERE tickets.id = p.ticket_id AND tickets.company_id = p.company_id
      RETURNING tickets.*
    ), rendered AS (
      SELECT t.id AS ticket_id, (SELECT row_to_json(z) FROM (SELECT ${TICKET_ROW_COLUMNS}) z) AS ticket
      FROM upd t ${TICKET_ROW_JOINS}
    )
    -- one row per message: each CTE has at most one row of a message (joined by hash, not scanned per row)
    SELECT fm.found, row_to_json(n.message) AS message, g.i IS NOT NULL AS targeted, r.ticket,
      CASE WHEN b.i IS NULL THEN NULL ELSE json_build_object(${jsonPairs(LOOKUP_COLUMNS, 'b')}) END AS by_number,
      CASE WHEN p.i IS NULL THEN NULL
        ELSE json_build_object('id', p.id, 'ticket_id', p.ticket_id, 'uuid', p.uuid, 'contact_id', p.contact_id) END AS prior
    FROM input x
    LEFT JOIN found_by_message fm ON fm.i = x.i
    LEFT JOIN target g ON g.i = x.i
    LEFT JOIN inserted n ON n.i = x.i
    LEFT JOIN rendered r ON r.ticket_id = n.ticket_id
    LEFT JOIN by_number b ON b.i = x.i
    LEFT JOIN prior p ON p.i = x.i
    ORDER BY x.i`,
};

/** `'name', alias.name, …` for json_build_object. */
function jsonPairs(columns: string, alias: string): string {
  return columns
    .split(',')
    .map((column) => column.trim())
    .map((column) => `'${column}', ${alias}.${column}`)
    .join(', ');
}

/** Several inbound messages' first statements as one (see BATCH_STATEMENT). */
async function runBatch(knex: Knex, inputs: KnownTicketInput[]): Promise<KnownTicketRaw[]> {
  return runStatement<KnownTicketRaw>(knex, BATCH_STATEMENT, [JSON.stringify(inputs)]);
}

/** A message's write, for the batcher: its batch row and how to write it alone. */
export interface KnownTicketWrite {
  input: KnownTicketInput;
  runAlone: () => Promise<KnownTicketRaw>;
}

/**
 * Writes that must not share a statement: a second message with the same channel id (its redelivery: the
 * statement would not see the first's row and answer it as new), and a reply to a message of the batch
 * (its quoted message is not stored until the batch is).
 */
function conflicts(earlier: KnownTicketWrite, item: KnownTicketWrite): boolean {
  const a = earlier.input;
  const b = item.input;
  if (a.company_id !== b.company_id || a.whatsapp_id !== b.whatsapp_id) return false;
  return a.channel_message_id === b.channel_message_id || a.channel_message_id === b.quoted_id;
}

/** Inbound messages in one statement at most (a batch's JSON stays a few tens of kB). */
const MAX_BATCH = 50;
/**
 * Statements in flight at once (per process): one, so a ticket's messages are stored, and its last message
 * set, in the order they arrived (two in flight could commit out of order). Measured: two gained nothing.
 */
const MAX_IN_FLIGHT = 1;

/** The batcher of a knex instance's pool (one per app: its writes share its connections). */
export const knownTicketBatcher = perInstance(
  (knex: Knex) =>
    new StatementBatcher<KnownTicketWrite, KnownTicketRaw>({
      runOne: (write) => write.runAlone(),
      runMany: (writes) =>
        runBatch(
          knex,
          writes.map((write) => write.input),
        ),
      conflicts,
      maxInFlight: MAX_IN_FLIGHT,
      maxBatch: MAX_BATCH,
    }),
);
