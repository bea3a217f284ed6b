import { type NamedStatement, named } from '../prepared';
import { TICKET_ROW_COLUMNS, TICKET_ROW_JOINS } from '../tickets/serializer';

/**
 * The SQL of the receive write path (`receive.service.ts`): fixed texts with bound values, each prepared
 * once per connection (planning them costs more than running them).
 */

// The insert of an inbound message, once per channel id, and the update of its ticket (`lastMessage`,
// `updatedAt`, one more unread message when it came from the contact) in one statement. `target` is a CTE
// giving ticket_id, contact_id and queue_id.
const INSERT_INBOUND = `ins AS (
       INSERT INTO messages (company_id, ticket_id, contact_id, queue_id, whatsapp_id, channel_message_id, body, from_me,
         ack, read, media_type, media_path, media_name, quoted_msg_id, send_status, data_json, created_at, updated_at)
       SELECT :companyId, target.ticket_id, target.contact_id, target.queue_id, :whatsappId, :channelMessageId, :body,
         :fromMe, :ack, :read, :mediaType, :mediaPath, :mediaName,
         (SELECT q.id FROM messages q
           WHERE q.company_id = :companyId AND q.whatsapp_id = :whatsappId AND q.channel_message_id = :quotedId LIMIT 1),
         'sent', :data::jsonb, :createdAt, now()
       FROM target
       ON CONFLICT (company_id, whatsapp_id, channel_message_id)
         WHERE channel_message_id IS NOT NULL AND whatsapp_id IS NOT NULL DO NOTHING
       RETURNING *
     ), upd AS (
       UPDATE tickets SET unread_messages = unread_messages + :unread, last_message = :lastMessage, updated_at = now()
       FROM target WHERE tickets.company_id = :companyId AND tickets.id = target.ticket_id AND EXISTS (SELECT 1 FROM ins)
       RETURNING tickets.*
     )`;

// The ticket after the update, in the columns of `loadTicket` (null when nothing was inserted): the event
// of the message needs it, and reading it here saves a statement per message.
const UPDATED_TICKET = `(SELECT row_to_json(x) FROM (SELECT ${TICKET_ROW_COLUMNS} FROM upd t ${TICKET_ROW_JOINS}) x) AS ticket`;

/** The insert of an inbound message on a known ticket and contact (`target` from bound values). */
export const INSERT_INBOUND_STATEMENT = named(
  'inbox_receive_insert',
  `WITH target AS (SELECT :ticketId::int AS ticket_id, :contactId::int AS contact_id, :queueId::int AS queue_id),
   ${INSERT_INBOUND}
   SELECT (SELECT row_to_json(ins) FROM ins) AS message, ${UPDATED_TICKET}`,
);

/** Up to this many sender identifiers are bound one by one (one prepared statement per count). */
export const SCALAR_IDENTIFIERS = 4;

/** The statement of `insertOnKnownTicket` for `count` identifiers (as scalars up to SCALAR_IDENTIFIERS). */
export function knownTicketStatement(count: number): NamedStatement {
  const scalar = count <= SCALAR_IDENTIFIERS;
  const key = scalar ? count : 0;
  let statement = knownTicketStatements.get(key);
  if (statement) return statement;
  // A few identifiers as scalar parameters: Postgres then adopts the generic plan of the prepared statement
  // (with `= ANY(array)` it estimates 10 elements, finds the generic plan dearer and re-plans every call).
  const identifierMatch = scalar
    ? `IN (${Array.from({ length: count }, (_, i) => `:identifier${i}`).join(', ')})`
    : '= ANY(:identifiers::text[])';
  statement = named(
    scalar ? `inbox_receive_${count}` : 'inbox_receive',
    `WITH found AS (
       SELECT ci.identifier, c.id AS contact_id, c.name, c.url_picture, t.id AS ticket_id, t.uuid, t.status,
         t.user_id, t.queue_id, t.is_group AS ticket_is_group,
         count(*) OVER () AS known, min(c.id) OVER () AS min_id, max(c.id) OVER () AS max_id
       FROM contact_identities ci
       JOIN contacts c ON c.id = ci.contact_id AND c.company_id = ci.company_id
       LEFT JOIN tickets t ON t.company_id = c.company_id AND t.contact_id = c.id
         AND coalesce(t.whatsapp_id, 0) = :whatsappId AND t.status <> 'closed'
       WHERE ci.company_id = :companyId AND ci.channel = :channel AND ci.identifier ${identifierMatch}
     ), target AS (
       SELECT ticket_id, contact_id, queue_id FROM found
       WHERE ticket_id IS NOT NULL AND known = :count AND min_id = max_id LIMIT 1
     ), by_number AS (
       -- no identifier known: the contact of the number, if any (a contact made by hand)
       SELECT NULL::text AS identifier, c.id AS contact_id, c.name, c.url_picture, t.id AS ticket_id, t.uuid, t.status,
         t.user_id, t.queue_id, t.is_group AS ticket_is_group
       FROM contacts c
       LEFT JOIN tickets t ON t.company_id = c.company_id AND t.contact_id = c.id
         AND coalesce(t.whatsapp_id, 0) = :whatsappId AND t.status <> 'closed'
       WHERE NOT EXISTS (SELECT 1 FROM found) AND c.company_id = :companyId AND c.number = :number::text
       LIMIT 1
     ), prior AS (
       -- nothing to insert into: the message of this channel id, if stored already (a redelivery)
       SELECT m.id, m.ticket_id, t.uuid, t.contact_id FROM messages m JOIN tickets t ON t.id = m.ticket_id
       WHERE NOT EXISTS (SELECT 1 FROM target) AND m.company_id = :companyId AND m.whatsapp_id = :whatsappId
         AND m.channel_message_id = :channelMessageId
       LIMIT 1
     ), ${INSERT_INBOUND}
     SELECT (SELECT json_agg(found) FROM found) AS found, (SELECT row_to_json(ins) FROM ins) AS message,
       EXISTS (SELECT 1 FROM target) AS targeted, ${UPDATED_TICKET},
       (SELECT row_to_json(by_number) FROM by_number) AS by_number, (SELECT row_to_json(prior) FROM prior) AS prior`,
  );
  knownTicketStatements.set(key, statement);
  return statement;
}
const knownTicketStatements = new Map<number, NamedStatement>();

/**
 * A new person's first message in one statement: the contact, its identities, a pending ticket (logged
 * `create`) and the message, the ticket as `loadTicket` reads it for the events (a new contact and ticket
 * have no tag, no rating, no user). Any row a concurrent receive made first (an identity, the number, the
 * channel id) fails the whole statement on its unique index, and the receive starts over and finds it.
 */
export const NEW_CONVERSATION = named(
  'inbox_receive_new',
  `WITH c AS (
     INSERT INTO contacts (company_id, name, number, email, url_picture, is_group, channel, whatsapp_id)
     VALUES (:companyId, :name, :number::text, :email::text, :urlPicture::text, false, :channel, :whatsappId)
     RETURNING id, name, number, email, url_picture, is_group, channel, disable_bot, active
   ), i AS (
     INSERT INTO contact_identities (company_id, contact_id, channel, identifier)
     SELECT :companyId, c.id, :identityChannel, x FROM c, unnest(:identifiers::text[]) x
   ), t AS (
     INSERT INTO tickets (company_id, contact_id, whatsapp_id, channel, is_group, status, queue_id, unread_messages, last_message)
     SELECT :companyId, c.id, :whatsappId, :channel, false, 'pending', :queueId::int, :unread, :lastMessage FROM c
     RETURNING *
   ), l AS (
     INSERT INTO ticket_logs (company_id, ticket_id, type, queue_id) SELECT :companyId, t.id, 'create', t.queue_id FROM t
   ), ins AS (
     INSERT INTO messages (company_id, ticket_id, contact_id, queue_id, whatsapp_id, channel_message_id, body, from_me,
       ack, read, media_type, media_path, media_name, quoted_msg_id, send_status, data_json, created_at, updated_at)
     SELECT :companyId, t.id, c.id, t.queue_id, :whatsappId, :channelMessageId, :body, :fromMe, :ack, :read, :mediaType,
       :mediaPath, :mediaName,
       (SELECT q.id FROM messages q
         WHERE q.company_id = :companyId AND q.whatsapp_id = :whatsappId AND q.channel_message_id = :quotedId LIMIT 1),
       'sent', :data::jsonb, :createdAt, now()
     FROM t, c
     RETURNING *
   )
   SELECT (SELECT row_to_json(ins) FROM ins) AS message, row_to_json(c) AS contact,
     (SELECT row_to_json(x) FROM (
       SELECT t.id, t.uuid, t.status, t.channel, t.is_group, t.is_bot, t.queue_id, t.user_id, t.contact_id, t.whatsapp_id,
         t.last_message, t.unread_messages, t.use_integration, t.amount_used_bot_queues, t.created_at, t.updated_at,
         NULL::smallint AS rate,
         json_build_object('id', c.id, 'name', c.name, 'number', c.number, 'email', c.email, 'urlPicture', c.url_picture,
           'isGroup', c.is_group, 'channel', c.channel, 'disableBot', c.disable_bot, 'active', c.active) AS contact_json,
         CASE WHEN q.id IS NULL THEN NULL ELSE json_build_object('id', q.id, 'name', q.name, 'color', q.color) END AS queue_json,
         NULL::json AS user_json, '[]'::json AS tags_json
       FROM t LEFT JOIN queues q ON q.id = t.queue_id) x) AS ticket
   FROM c`,
);
