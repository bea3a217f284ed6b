import {
  currentTenant,
  type DeliveryOutcome,
  type PluginContext,
  type StagedOutbound,
  type StageOutboundItem,
  type StageOutboundOptions,
} from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { inboxState } from '../state';
import { loadTickets } from '../tickets/serializer';
import { deliverMessage } from './deliver-message';
import { attemptDelivery } from './delivery-attempt';
import { driverFor } from './driver-registry';
import { loadMessages, type MessageRecord, messageFromRecord } from './serializer';

/**
 * The bulk outbound side of the inbox contract (`InboxService.stageOutbound`, `deliver`, `checkNumbers`):
 * product features that write to many people by number (campaigns) store their messages on the people's
 * tickets in one transaction per batch and deliver them through the same step as the delivery job.
 */

/** Deliveries run at once per `deliver` call (each is a few statements and the driver's send). */
const DELIVERY_CONCURRENCY = 16;

/**
 * A stored message's columns (of `messages` as `m`) as `MessageRecord` names them, for a `RETURNING` that the
 * announcements build their payloads from (`messageFromRecord`) without reading the rows again.
 */
const MESSAGE_RECORD_COLUMNS = `m.id, m.body, m.from_me AS "fromMe", m.ack, m.media_type AS "mediaType",
  m.media_path AS "mediaPath", m.media_name AS "mediaName", m.is_deleted AS "isDeleted", m.is_edited AS "isEdited",
  m.is_forwarded AS "isForwarded", m.is_private AS "isPrivate", m.quoted_msg_id AS "quotedMsgId", m.reactions,
  m.send_status AS "sendStatus", m.send_error AS "sendError", m.ticket_id AS "ticketId", m.contact_id AS "contactId",
  m.user_id AS "userId", m.queue_id AS "queueId", m.created_at AS "createdAt", m.updated_at AS "updatedAt"`;

/** A message the batched delivery wrote, with its channel id and its contact's name and picture. */
type DeliveredRecord = MessageRecord & {
  channelMessageId: string | null;
  contactName: string | null;
  contactUrlPicture: string | null;
};

/*
 * The batch statements below have a fixed text (each list is one array parameter) and a name: node-pg
 * prepares each once per connection, and Postgres parses and plans it once instead of on every batch.
 */

/** Raw bindings with arrays that hold nulls (node-pg sends them as SQL arrays with NULL elements). */
function bindings(values: unknown[]): readonly Knex.RawBinding[] {
  return values as readonly Knex.RawBinding[];
}

function companyOfScope(what: string): number {
  const companyId = currentTenant()?.companyId;
  if (companyId === undefined) throw new Error(`inbox ${what}: no tenant scope`);
  return companyId;
}

/** Digits of a number, or null when it has none. */
function digitsOf(number: string): string | null {
  const digits = number.replace(/\D/g, '').slice(0, 50);
  return digits === '' ? null : digits;
}

interface ContactRow {
  id: number;
  number: string;
}

interface TicketRow {
  id: number;
  contactId: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
}

/**
 * Finds or makes each number's contact (one per company and number: a unique index says so) and reads the
 * active ticket on the connection of those that have one, in one statement. A contact another writer made
 * meanwhile (its insert skipped here, its row newer than this statement's snapshot) is read again after.
 */
async function contactsAndTickets(
  trx: Knex.Transaction,
  companyId: number,
  options: StageOutboundOptions,
  people: Map<string, StageOutboundItem>,
): Promise<{ contacts: Map<string, number>; tickets: Map<number, TicketRow> }> {
  const numbers = [...people.keys()];
  const names = numbers.map((number) => (people.get(number)?.name?.trim() || number).slice(0, 250));
  const emails = numbers.map((number) => people.get(number)?.email?.trim().slice(0, 255) || null);
  const found = (await trx
    .raw(
      `WITH made AS (
       INSERT INTO contacts (company_id, name, number, email, channel, whatsapp_id)
       SELECT ?, p.name, p.number, p.email, ?, ? FROM unnest(?::text[], ?::text[], ?::text[]) AS p(number, name, email)
       ON CONFLICT (company_id, number) WHERE number IS NOT NULL DO NOTHING
       RETURNING id, number),
     c AS (
       SELECT id, number, true AS made FROM made
       UNION ALL
       SELECT id, number, false FROM contacts WHERE company_id = ? AND number = ANY(?::text[]))
     SELECT c.id AS "contactId", c.number, t.id, t.status, t.user_id AS "userId", t.queue_id AS "queueId",
       t.is_group AS "isGroup"
     FROM c LEFT JOIN tickets t ON NOT c.made AND t.company_id = ? AND t.contact_id = c.id
       AND coalesce(t.whatsapp_id, 0) = ? AND t.status <> 'closed'
     ORDER BY c.number`,
      bindings([
        companyId,
        options.channel.slice(0, 20),
        options.whatsappId,
        numbers,
        names,
        emails,
        companyId,
        numbers,
        companyId,
        options.whatsappId,
      ]),
    )
    .options({ name: 'inbox_stage_contacts_tickets' })) as {
    rows: Array<Omit<TicketRow, 'id'> & { id: number | null; number: string }>;
  };
  // by number, as the contacts' index reads them: the tickets made for them are numbered in that order
  const contacts = new Map<string, number>();
  const tickets = new Map<number, TicketRow>();
  for (const row of found.rows) {
    contacts.set(row.number, row.contactId);
    if (row.id !== null) tickets.set(row.contactId, { ...row, id: row.id });
  }
  const missing = numbers.filter((number) => !contacts.has(number));
  if (missing.length > 0) {
    const rows = (await trx('contacts')
      .where({ companyId })
      .whereRaw('number = ANY(?::text[])', [missing])
      .orderBy('number')
      .select('id', 'number')) as ContactRow[];
    for (const row of rows) contacts.set(row.number, row.id);
    // their tickets, if any, are read with the other contacts' missing ones (ticketsOf)
  }
  return { contacts, tickets };
}

/**
 * The active ticket on the connection of each contact (`found`: those read with the contacts), making the
 * missing ones (`options.newTicket`) with their last message already written (`lastOf`, by contact): a new
 * ticket needs no second write.
 */
async function ticketsOf(
  trx: Knex.Transaction,
  companyId: number,
  options: StageOutboundOptions,
  contactIds: number[],
  found: Map<number, TicketRow>,
  lastOf: Map<number, { body: string; at: Date }>,
): Promise<{ byContact: Map<number, TicketRow>; created: Set<number> }> {
  const active = async (ids: number[]) =>
    (await trx('tickets')
      .where({ companyId })
      .whereRaw('contact_id = ANY(?::int[])', [ids])
      .whereRaw('coalesce(whatsapp_id, 0) = ?', [options.whatsappId])
      .whereNot('status', 'closed')
      .select('id', 'contactId', 'status', 'userId', 'queueId', 'isGroup')) as TicketRow[];
  const byContact = new Map<number, TicketRow>();
  for (const id of contactIds) {
    const ticket = found.get(id);
    if (ticket) byContact.set(id, ticket);
  }
  const missing = contactIds.filter((id) => !byContact.has(id));
  const created = new Set<number>();
  if (missing.length === 0) return { byContact, created };

  const userId = options.newTicket.userId ?? null;
  const status = options.newTicket.status === 'open' && userId === null ? 'pending' : options.newTicket.status;
  const queueId = options.newTicket.queueId ?? null;
  // a contact made active by an inbound message meanwhile keeps that ticket (the one-active index refuses
  // a second): insert what the index allows, then read the rest again
  const inserted = (await trx
    .raw(
      `INSERT INTO tickets (company_id, contact_id, status, user_id, queue_id, whatsapp_id, channel, is_group, closed_at,
       last_message, updated_at)
     SELECT ?, c.id, ?, ?, ?, ?, ?, false, CASE WHEN ? = 'closed' THEN now() END, c.body, c.at
     FROM unnest(?::int[], ?::text[], ?::timestamptz[]) AS c(id, body, at)
     ON CONFLICT (company_id, contact_id, coalesce(whatsapp_id, 0)) WHERE status <> 'closed' DO NOTHING
     RETURNING id, contact_id AS "contactId", status, user_id AS "userId", queue_id AS "queueId", is_group AS "isGroup"`,
      [
        companyId,
        status,
        status === 'pending' ? null : userId,
        queueId,
        options.whatsappId,
        options.channel.slice(0, 20),
        status,
        missing,
        missing.map((id) => lastOf.get(id)?.body ?? ''),
        missing.map((id) => lastOf.get(id)?.at ?? new Date()),
      ],
    )
    .options({ name: 'inbox_stage_tickets_insert' })) as { rows: TicketRow[] };
  for (const row of inserted.rows) {
    byContact.set(row.contactId, row);
    created.add(row.id);
  }
  const still = missing.filter((id) => !byContact.has(id));
  if (still.length > 0) for (const row of await active(still)) byContact.set(row.contactId, row);
  if (created.size > 0) {
    const rows = inserted.rows.flatMap((row) => [
      { companyId, ticketId: row.id, type: 'create', userId: null, queueId: row.queueId },
      ...(row.status === 'open' ? [{ companyId, ticketId: row.id, type: 'open', userId: row.userId, queueId: row.queueId }] : []),
      ...(row.status === 'closed' ? [{ companyId, ticketId: row.id, type: 'closed', userId: null, queueId: row.queueId }] : []),
    ]);
    await trx('ticketLogs').insert(rows);
  }
  return { byContact, created };
}

/** `InboxService.stageOutbound` (plugin-sdk/src/server/channel-contract.ts). */
export async function stageOutbound(
  ctx: PluginContext,
  items: StageOutboundItem[],
  options: StageOutboundOptions,
): Promise<StagedOutbound[]> {
  const companyId = companyOfScope('stageOutbound');
  if (items.length === 0) return [];
  const people = new Map<string, StageOutboundItem>();
  for (const item of items) {
    const number = digitsOf(item.number);
    if (number === null) throw new Error(`inbox stageOutbound: item ${item.key} has no number`);
    if (!people.has(number)) people.set(number, item);
  }
  const staged = await ctx.db.transaction(async (trx) => {
    const { contacts, tickets: found } = await contactsAndTickets(trx, companyId, options, people);
    const now = Date.now();
    const planned = items.map((item, index) => ({
      item,
      contactId: contacts.get(digitsOf(item.number) as string) as number,
      at: new Date(now + index),
    }));
    // each contact's ticket ends on its last message (one ticket per contact on the connection)
    const lastOf = new Map<number, { body: string; at: Date }>();
    for (const row of planned) lastOf.set(row.contactId, { body: row.item.body || (row.item.media?.fileName ?? ''), at: row.at });
    const { byContact, created } = await ticketsOf(trx, companyId, options, [...new Set(contacts.values())], found, lastOf);
    const rows = planned.map((row) => ({ ...row, ticket: byContact.get(row.contactId) as TicketRow }));
    // the tickets first, then their messages, as every writer of messages does (migration 0002); the tickets
    // just made carry their last message already
    const last = new Map<number, { body: string; at: Date }>();
    for (const row of rows) {
      if (!created.has(row.ticket.id))
        last.set(row.ticket.id, { body: row.item.body || (row.item.media?.fileName ?? ''), at: row.at });
    }
    if (last.size > 0)
      await trx
        .raw(
          `UPDATE tickets t SET last_message = v.body, updated_at = v.at
       FROM unnest(?::int[], ?::text[], ?::timestamptz[]) AS v(id, body, at)
       WHERE t.company_id = ? AND t.id = v.id`,
          [
            [...last.keys()],
            [...last.values()].map((value) => value.body),
            [...last.values()].map((value) => value.at),
            companyId,
          ],
        )
        .options({ name: 'inbox_stage_tickets_last' });
    const data = (item: StageOutboundItem) => {
      const json: Record<string, string> = {};
      if (item.media?.mimetype) json.mimetype = item.media.mimetype;
      if (options.automation) json.automation = options.automation;
      return Object.keys(json).length > 0 ? JSON.stringify(json) : null;
    };
    const inserted = (await trx
      .raw(
        `INSERT INTO messages AS m (company_id, ticket_id, contact_id, queue_id, whatsapp_id, body, from_me, read, ack, media_type,
         media_path, media_name, send_status, data_json, created_at, updated_at)
       SELECT ?, v.ticket_id, v.contact_id, t.queue_id, ?, v.body, true, true, 0, v.media_type, v.media_path, v.media_name,
         'pending', v.data_json::jsonb, v.at, v.at
       FROM unnest(?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[])
         WITH ORDINALITY AS v(ticket_id, contact_id, body, media_type, media_path, media_name, data_json, at, n)
       JOIN tickets t ON t.company_id = ? AND t.id = v.ticket_id
       ORDER BY v.n
       RETURNING ${MESSAGE_RECORD_COLUMNS}`,
        bindings([
          companyId,
          options.whatsappId,
          rows.map((row) => row.ticket.id),
          rows.map((row) => row.contactId),
          rows.map((row) => row.item.body),
          rows.map((row) => row.item.media?.mediaType ?? 'chat'),
          rows.map((row) => row.item.media?.storageKey ?? null),
          rows.map((row) => row.item.media?.fileName ?? null),
          rows.map((row) => data(row.item)),
          rows.map((row) => row.at),
          companyId,
        ]),
      )
      .options({ name: 'inbox_stage_messages' })) as { rows: MessageRecord[] };
    // ids follow the insertion order of one statement: sort them back to the items' order
    const records = inserted.rows.sort((a, b) => Number(a.id) - Number(b.id));
    const result: StagedOutbound[] = rows.map((row, index) => ({
      key: row.item.key,
      contactId: row.contactId,
      ticketId: row.ticket.id,
      messageId: Number(records[index]?.id),
      ticketCreated: created.has(row.ticket.id),
    }));
    await options.link?.(trx, result);
    return { result, records, tickets: rows.map((row) => row.ticket) };
  });
  await announceStaged(ctx, companyId, staged.result, staged.records, staged.tickets, options);
  return staged.result;
}

/**
 * After the commit: the entitled users see the tickets and messages; the bus hears of them. The messages are
 * built from what the insert returned (`records`, in the order of `staged`): the batch's one read is its
 * tickets, whose contacts the messages show.
 */
async function announceStaged(
  ctx: PluginContext,
  companyId: number,
  staged: StagedOutbound[],
  records: MessageRecord[],
  tickets: TicketRow[],
  options: StageOutboundOptions,
): Promise<void> {
  const { realtime } = inboxState(ctx);
  const ticketIds = [...new Set(staged.map((row) => row.ticketId))];
  const loaded = await loadTickets(ctx.db.knex, companyId, ticketIds);
  const ticketById = new Map(loaded.map((ticket) => [ticket.id, ticket]));
  const before = new Map(tickets.map((ticket) => [ticket.id, ticket]));
  const createdTickets = new Set(staged.filter((row) => row.ticketCreated).map((row) => row.ticketId));
  for (const ticket of loaded) {
    const created = createdTickets.has(ticket.id);
    const previous = before.get(ticket.id);
    await realtime.ticketChanged(
      companyId,
      ticket,
      created || !previous
        ? null
        : { status: previous.status as never, userId: previous.userId, queueId: previous.queueId, isGroup: previous.isGroup },
    );
  }
  for (const record of records) {
    const ticket = ticketById.get(record.ticketId);
    if (!ticket) continue;
    // a staged message's contact is its ticket's (both come from the same number)
    const message = messageFromRecord(ctx, companyId, record, {
      name: ticket.contact.name,
      urlPicture: ticket.contact.urlPicture,
    });
    await realtime.messageCreated(companyId, message, ticket);
  }
  // The bus hears each ticket's events in order (created, then its messages), and the tickets all at once:
  // handlers that write (the webhooks' outbox) then gather the batch's events into one statement instead of
  // one statement per message, one after the other.
  const rowsOf = new Map<number, StagedOutbound[]>();
  for (const row of staged) rowsOf.set(row.ticketId, [...(rowsOf.get(row.ticketId) ?? []), row]);
  await Promise.all(
    [...rowsOf].map(async ([ticketId, rows]) => {
      const ticket = ticketById.get(ticketId);
      if (ticket && createdTickets.has(ticketId)) {
        await ctx.events.publish('ticket.created', {
          companyId,
          ticketId,
          status: ticket.status,
          whatsappId: ticket.whatsappId,
          isGroup: ticket.isGroup,
        });
      }
      for (const row of rows) {
        await ctx.events.publish('message.sent', {
          companyId,
          ticketId,
          messageId: row.messageId,
          whatsappId: options.whatsappId,
          userId: null,
          automation: options.automation ?? null,
          ticket: { status: ticket?.status ?? 'closed', isGroup: ticket?.isGroup ?? false },
        });
      }
    }),
  );
}

/** A stored outbound message with its ticket and where it goes, read in one query for a batch. */
interface DeliveryRow {
  id: string | number;
  sendStatus: 'pending' | 'sent' | 'failed';
  channelMessageId: string | null;
  sendError: string | null;
  isPrivate: boolean;
  isDeleted: boolean;
  fromMe: boolean;
  body: string;
  mediaType: string;
  mediaPath: string | null;
  mediaName: string | null;
  quotedMsgId: string | number | null;
  isForwarded: boolean;
  dataJson: { mimetype?: string } | null;
  ticketId: number;
  uuid: string;
  isGroup: boolean;
  channel: string;
  whatsappId: number | null;
  contactId: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  number: string | null;
  identifiers: string[];
}

/** What a delivery stores on its message. */
type DeliveryResult = {
  id: number;
  status: 'sent' | 'failed';
  channelMessageId: string | null;
  ack: number;
  error: string | null;
};

/**
 * `InboxService.deliver`: the delivery job's step (jobs/deliver-message.ts) for a batch — the same outcomes
 * (the one rule of `attemptDelivery`), the same skips (sent, private, deleted, inbound), the same `appMessage update` —
 * with one read and one write for the whole batch instead of a few statements per message. A message that
 * quotes another, or whose write meets the channel's echo of it, takes the job's own path.
 */
export async function deliverNow(ctx: PluginContext, messageIds: number[]): Promise<DeliveryOutcome[]> {
  const companyId = companyOfScope('deliver');
  if (messageIds.length === 0) return [];
  const { knex } = ctx.db;
  const rows = (await knex
    .raw(
      `SELECT m.id, m.send_status AS "sendStatus", m.channel_message_id AS "channelMessageId", m.send_error AS "sendError",
       m.is_private AS "isPrivate", m.is_deleted AS "isDeleted", m.from_me AS "fromMe", m.body, m.media_type AS "mediaType",
       m.media_path AS "mediaPath", m.media_name AS "mediaName", m.quoted_msg_id AS "quotedMsgId",
       m.is_forwarded AS "isForwarded", m.data_json AS "dataJson",
       t.id AS "ticketId", t.uuid, t.is_group AS "isGroup", t.channel, t.whatsapp_id AS "whatsappId", t.contact_id AS "contactId",
       t.status, t.user_id AS "userId", t.queue_id AS "queueId", c.number,
       coalesce((SELECT array_agg(ci.identifier ORDER BY ci.id) FROM contact_identities ci
         WHERE ci.company_id = t.company_id AND ci.contact_id = t.contact_id AND ci.channel = t.channel), '{}') AS identifiers
     FROM messages m
     JOIN tickets t ON t.company_id = m.company_id AND t.id = m.ticket_id
     LEFT JOIN contacts c ON c.company_id = t.company_id AND c.id = t.contact_id
     WHERE m.company_id = ? AND m.id = ANY(?::bigint[])`,
      [companyId, messageIds],
    )
    .options({ name: 'inbox_deliver_read' })) as { rows: DeliveryRow[] };
  const due = rows.rows.filter(
    (row) => row.sendStatus !== 'sent' && !row.isPrivate && !row.isDeleted && row.fromMe && row.quotedMsgId === null,
  );
  const byJob = rows.rows.filter(
    (row) => row.sendStatus !== 'sent' && !row.isPrivate && !row.isDeleted && row.fromMe && row.quotedMsgId !== null,
  );

  const results: DeliveryResult[] = [];
  let next = 0;
  const worker = async () => {
    for (;;) {
      const row = due[next];
      next += 1;
      if (!row) return;
      results.push(await sendOne(ctx, companyId, row));
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, due.length) }, worker));

  // what the batched write stored, announced from its own RETURNING and answered without a read
  let written: DeliveredRecord[] | null = null;
  if (results.length > 0) {
    try {
      const updated = (await knex
        .raw(
          `WITH written AS (
           UPDATE messages m SET send_status = v.status, channel_message_id = coalesce(v.channel_id, m.channel_message_id),
             ack = CASE WHEN v.status = 'sent' THEN v.ack ELSE m.ack END, send_error = v.error, updated_at = now()
           FROM unnest(?::bigint[], ?::text[], ?::text[], ?::int[], ?::text[]) AS v(id, status, channel_id, ack, error)
           WHERE m.company_id = ? AND m.id = v.id AND m.send_status <> 'sent'
           RETURNING ${MESSAGE_RECORD_COLUMNS}, m.channel_message_id AS "channelMessageId",
             m.company_id AS "companyId")
         SELECT w.*, c.name AS "contactName", c.url_picture AS "contactUrlPicture"
         FROM written w LEFT JOIN contacts c ON c.company_id = w."companyId" AND c.id = w."contactId"`,
          bindings([
            results.map((result) => result.id),
            results.map((result) => result.status),
            results.map((result) => result.channelMessageId),
            results.map((result) => result.ack),
            results.map((result) => result.error),
            companyId,
          ]),
        )
        .options({ name: 'inbox_deliver_write' })) as { rows: DeliveredRecord[] };
      written = updated.rows;
    } catch (error) {
      // the channel echoed one of them back first (a unique channel id): the job's path settles each
      ctx.log.info({ err: error }, 'batched delivery write refused: delivering one by one');
      for (const result of results) await deliverMessage(ctx, companyId, result.id);
    }
    const ticketOf = new Map(due.map((row) => [Number(row.id), row]));
    const { realtime } = inboxState(ctx);
    const messages =
      written === null
        ? await loadMessages(
            ctx,
            companyId,
            results.map((result) => result.id),
          )
        : written.map((record) =>
            messageFromRecord(
              ctx,
              companyId,
              record,
              record.contactName === null ? null : { name: record.contactName, urlPicture: record.contactUrlPicture },
            ),
          );
    for (const message of messages) {
      const row = ticketOf.get(message.id);
      if (!row) continue;
      await realtime.messageUpdated(companyId, message, {
        status: row.status as never,
        userId: row.userId,
        queueId: row.queueId,
        isGroup: row.isGroup,
      });
    }
  }
  for (const row of byJob) await deliverMessage(ctx, companyId, Number(row.id));

  type FinalRow = {
    id: string | number;
    sendStatus: 'sent' | 'failed' | 'pending';
    channelMessageId: string | null;
    sendError: string | null;
  };
  const byId = new Map<number, FinalRow>((written ?? []).map((record) => [Number(record.id), record]));
  // the rest (skipped, settled by the job's path, or written meanwhile by another delivery) is read as it is now
  const unknown = messageIds.filter((messageId) => !byId.has(messageId));
  if (unknown.length > 0) {
    const final = (await knex('messages')
      .where({ companyId })
      .whereRaw('id = ANY(?::bigint[])', [unknown])
      .select('id', 'sendStatus', 'channelMessageId', 'sendError')) as FinalRow[];
    for (const row of final) byId.set(Number(row.id), row);
  }
  // each message's ticket status as the batch's read found it (no delivery changes a ticket's status)
  const ticketStatusOf = new Map(rows.rows.map((row) => [Number(row.id), row.status]));
  return messageIds.map((messageId) => {
    const row = byId.get(messageId);
    const ticketStatus = ticketStatusOf.get(messageId);
    const found = ticketStatus === undefined ? {} : { ticketStatus };
    if (!row) return { messageId, status: 'pending', channelMessageId: null, error: null, ...found };
    return {
      messageId,
      status: row.sendStatus,
      channelMessageId: row.channelMessageId,
      error: row.sendStatus === 'failed' ? row.sendError : null,
      ...found,
    };
  });
}

/** One message through its channel, by the delivery job's own rule (`attemptDelivery`). */
async function sendOne(ctx: PluginContext, companyId: number, row: DeliveryRow): Promise<DeliveryResult> {
  const id = Number(row.id);
  const mediaPath = row.mediaPath;
  const attempt = await attemptDelivery(
    ctx,
    companyId,
    {
      companyId,
      whatsappId: row.whatsappId,
      channel: row.channel,
      ticket: { id: row.ticketId, uuid: row.uuid, isGroup: row.isGroup },
      contact: { id: row.contactId, number: row.number, identifiers: row.identifiers },
    },
    {
      messageId: id,
      body: row.body,
      mediaType: row.mediaType,
      ...(mediaPath
        ? {
            media: {
              fileName: row.mediaName ?? mediaPath.split('/').pop() ?? 'file',
              mimetype: row.dataJson?.mimetype ?? null,
              storageKey: mediaPath,
              open: () => ctx.storage.get(companyId, mediaPath),
            },
          }
        : {}),
      quoted: null,
      vCard: row.mediaType === 'contactMessage' ? row.body : null,
      isForwarded: row.isForwarded,
    },
  );
  return { id, ...attempt };
}

/** `InboxService.checkNumbers`: the channel driver's answer, or unknown for each number. */
export async function checkNumbers(
  ctx: PluginContext,
  input: { whatsappId: number; channel: string; numbers: string[] },
): Promise<Array<boolean | null>> {
  const unknown = () => input.numbers.map(() => null);
  const driver = driverFor(ctx, input.channel);
  if (!driver?.checkNumbers || input.numbers.length === 0) return unknown();
  const answer = await driver.checkNumbers(input.whatsappId, input.numbers);
  return input.numbers.map((_number, index) => answer[index] ?? null);
}
