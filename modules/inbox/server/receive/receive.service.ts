import {
  camelKeys,
  currentTenant,
  type InboundContact,
  type InboundMessage,
  type InboundResult,
  type PluginContext,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { MediaType } from '../../shared/types';
import { MEDIA_TYPES } from '../../shared/types';
import { type StoredMedia, storeInboundMedia } from '../messages/media-upload';
import { messageCounters } from '../messages/message-metrics';
import { previewOf } from '../messages/message-send.service';
import { loadMessage, type MessageRecord, messageFromRecord } from '../messages/serializer';
import { runStatement, valuesOf } from '../prepared';
import { inboxState } from '../state';
import { type TicketRow, ticketFromRow } from '../tickets/serializer';
import { notifyTicketChanged } from '../tickets/ticket-notify';
import type { VisibleTicketFields } from '../tickets/visibility';
import { announceMerge, mergeContacts } from './contact-merge.service';
import { type KnownTicketRaw, knownTicketBatcher } from './inbound-batch';
import { INSERT_INBOUND_STATEMENT, knownTicketStatement, NEW_CONVERSATION, SCALAR_IDENTIFIERS } from './receive-sql';

/** Postgres unique violation: a concurrent receive made the same contact, identity or ticket first. */
const UNIQUE_VIOLATION = '23505';
/** Attempts of one receive (a lost race is retried; the second attempt finds the winner's rows). */
const RECEIVE_ATTEMPTS = 3;

/** Thrown inside a receive's transaction to roll it back and try again. */
class RetryReceive extends Error {}
/** Thrown inside a receive's transaction when the message was stored meanwhile (a redelivery). */
class DuplicateMessage extends Error {}

function isUniqueViolation(error: unknown): boolean {
  const err = error as { code?: unknown; nativeError?: { code?: unknown } };
  return err.code === UNIQUE_VIOLATION || err.nativeError?.code === UNIQUE_VIOLATION;
}

/** An active ticket as the lookups find it. */
interface ActiveTicket {
  id: number;
  uuid: string;
  status: VisibleTicketFields['status'];
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
}

/** A contact the lookups found (with its active ticket on the connection, if any). */
interface FoundContact {
  id: number;
  name: string;
  urlPicture: string | null;
  ticket: ActiveTicket | null;
}

/** One party of a message after the lookups: found or to be made, and the identifiers to remember. */
interface Party {
  side: InboundContact;
  contact: FoundContact | null;
  /** Identifiers of `side` not yet stored for the company and channel. */
  missing: string[];
}

interface LookupRow {
  identifier: string;
  contactId: number;
  name: string;
  urlPicture: string | null;
  ticketId: number | null;
  uuid: string | null;
  status: ActiveTicket['status'] | null;
  userId: number | null;
  queueId: number | null;
  ticketIsGroup: boolean | null;
}

function toFound(row: LookupRow): FoundContact {
  return {
    id: row.contactId,
    name: row.name,
    urlPicture: row.urlPicture,
    ticket:
      row.ticketId === null
        ? null
        : {
            id: row.ticketId,
            uuid: row.uuid as string,
            status: row.status as ActiveTicket['status'],
            userId: row.userId,
            queueId: row.queueId,
            isGroup: row.ticketIsGroup === true,
          },
  };
}

/** The contact columns and its active ticket on the connection (at most one: a unique index says so). */
function withActiveTicket(query: Knex.QueryBuilder, knex: Knex, connectionId: number): Knex.QueryBuilder {
  return query
    .leftJoin('tickets as t', (join) => {
      join
        .on('t.companyId', 'c.companyId')
        .andOn('t.contactId', 'c.id')
        .andOn(knex.raw('coalesce(t.whatsapp_id, 0) = ?', [connectionId]))
        .andOnVal('t.status', '<>', 'closed');
    })
    .select(
      'c.id as contactId',
      'c.name',
      'c.urlPicture',
      't.id as ticketId',
      't.uuid',
      't.status',
      't.userId',
      't.queueId',
      't.isGroup as ticketIsGroup',
    );
}

/** Identifiers as stored: non-empty, at most 255 characters, without repeats. */
export function cleanIdentifiers(identifiers: string[]): string[] {
  return [...new Set(identifiers.filter((id) => typeof id === 'string' && id.length > 0 && id.length <= 255))];
}

/** A phone number as stored: digits only, 1 to 50 of them; else none. */
function cleanNumber(number: string | null | undefined): string | null {
  const digits = (number ?? '').replace(/\D/g, '');
  return digits.length > 0 && digits.length <= 50 ? digits : null;
}

function resolveParty(side: InboundContact, identifiers: string[], rows: LookupRow[]): Party {
  const byIdentifier = new Map(rows.map((row) => [row.identifier, row]));
  const hit = identifiers.map((id) => byIdentifier.get(id)).find((row) => row !== undefined);
  return {
    side: { ...side, identifiers },
    contact: hit ? toFound(hit) : null,
    missing: identifiers.filter((id) => !byIdentifier.has(id)),
  };
}

/** What the message insert needs besides the input. */
interface MessagePlacement {
  ticketId: number;
  ticketQueueId: number | null;
  contactId: number;
  media: StoredMedia | null;
}

/** The values of an inbound message row, and what it does to its ticket. */
function inboundValues(input: InboundMessage, media: StoredMedia | null) {
  const { message } = input;
  const fromMe = message.fromMe === true;
  const mediaType: MediaType = (MEDIA_TYPES as readonly string[]).includes(message.mediaType ?? '')
    ? (message.mediaType as MediaType)
    : media
      ? media.mediaType
      : 'chat';
  const body = message.body ?? '';
  const timestamp = message.timestamp;
  // a message from the channel's history is read already: nobody is waiting for an answer to it
  const read = fromMe || input.imported === true;
  return {
    channelMessageId: message.id,
    body,
    fromMe,
    ack: message.ack ?? (fromMe ? 1 : 0),
    mediaType,
    mediaPath: media?.key ?? null,
    mediaName: media?.name ?? message.media?.fileName ?? null,
    quotedId: message.quotedId ?? null,
    data: message.data === undefined ? null : JSON.stringify(message.data),
    createdAt: timestamp instanceof Date && !Number.isNaN(timestamp.getTime()) ? timestamp : new Date(),
    read,
    unread: read ? 0 : 1,
    lastMessage: previewOf({ body, mediaName: media?.name ?? null }),
  };
}

/** The ticket of an `UPDATED_TICKET` column. */
function updatedTicket(json: Record<string, unknown> | null): TicketRow | null {
  return json ? camelKeys<TicketRow>(json) : null;
}

/**
 * Inserts the inbound message on a known ticket and contact (a redelivery inserts nothing and answers a
 * null record), updating the ticket in the same statement; answers the updated ticket too.
 */
async function insertInbound(
  db: Knex | Knex.Transaction,
  companyId: number,
  input: InboundMessage,
  placement: MessagePlacement,
): Promise<{ record: MessageRecord | null; ticketRow: TicketRow | null }> {
  // a fixed text with bound values: prepared once per connection (planning it costs more than running it)
  const [row] = await runStatement<{ message: Record<string, unknown> | null; ticket: Record<string, unknown> | null }>(
    db,
    INSERT_INBOUND_STATEMENT,
    valuesOf(INSERT_INBOUND_STATEMENT, {
      ...inboundValues(input, placement.media),
      companyId,
      whatsappId: input.whatsappId,
      ticketId: placement.ticketId,
      contactId: placement.contactId,
      queueId: placement.ticketQueueId,
    }),
  );
  return {
    record: row?.message ? camelKeys<MessageRecord>(row.message) : null,
    ticketRow: updatedTicket(row?.ticket ?? null),
  };
}

/** What the first statement of a receive found. */
interface KnownTicketLookup {
  /** The contacts of the sender's identifiers, with their active ticket on the connection. */
  rows: LookupRow[];
  /** The message stored on the active ticket (null: not stored, see `duplicate`). */
  record: MessageRecord | null;
  ticketRow: TicketRow | null;
  /** The active ticket was found but the channel id was stored already. */
  duplicate: boolean;
  /** No identifier known: the contact of the number, if any. */
  byNumber: LookupRow | null;
  /** No active ticket found: the message stored already under this channel id, if any. */
  prior: InboundResult | null;
}

/**
 * The usual case in one statement: the sender is known by all its identifiers (one contact) and has an
 * active ticket on the connection — then the message is inserted and the ticket updated. Answers the
 * lookup rows in any case (for the general path) and, when they found no active ticket, what the general
 * path would look up next — the contact of the number, the message stored already — so that a new
 * conversation costs no more round trips than it must.
 */
async function insertOnKnownTicket(
  knex: Knex,
  companyId: number,
  input: InboundMessage,
  identifiers: string[],
  media: StoredMedia | null,
): Promise<KnownTicketLookup> {
  const statement = knownTicketStatement(identifiers.length);
  const values = inboundValues(input, media);
  const number = cleanNumber(input.contact.number);
  // while earlier receives' statements are in flight, this one waits to leave with the others as one
  // statement (services/inbound-batch.ts); alone, it goes at once as the one-message statement
  const row = await knownTicketBatcher(knex).submit({
    input: {
      company_id: companyId,
      whatsapp_id: input.whatsappId,
      channel: input.channel,
      identifiers,
      count: identifiers.length,
      number,
      channel_message_id: values.channelMessageId,
      body: values.body,
      from_me: values.fromMe,
      ack: values.ack,
      read: values.read,
      media_type: values.mediaType,
      media_path: values.mediaPath,
      media_name: values.mediaName,
      quoted_id: values.quotedId,
      data: values.data,
      created_at: values.createdAt,
      unread: values.unread,
      last_message: values.lastMessage,
    },
    runAlone: async () => {
      const [alone] = await runStatement<KnownTicketRaw>(
        knex,
        statement,
        valuesOf(statement, {
          ...values,
          companyId,
          whatsappId: input.whatsappId,
          channel: input.channel,
          number,
          // an array reaches node-pg as a value: it writes the literal, quoting each identifier
          ...(identifiers.length <= SCALAR_IDENTIFIERS
            ? Object.fromEntries(identifiers.map((id, i) => [`identifier${i}`, id]))
            : { identifiers }),
          count: identifiers.length,
        }),
      );
      return alone as KnownTicketRaw;
    },
  });
  const rows = (row.found ?? []).map((found) => camelKeys<LookupRow>(found));
  const record = row.message ? camelKeys<MessageRecord>(row.message) : null;
  const prior = row.prior ?? null;
  return {
    rows,
    record,
    ticketRow: updatedTicket(row.ticket),
    duplicate: row.targeted === true && record === null,
    byNumber: row.by_number ? camelKeys<LookupRow>(row.by_number) : null,
    prior: prior
      ? {
          contactId: prior.contact_id,
          ticketId: prior.ticket_id,
          ticketUuid: prior.uuid,
          messageId: Number(prior.id),
          created: false,
          ticketCreated: false,
        }
      : null,
  };
}

/** A new person's first message (see NEW_CONVERSATION): what the writes of a receive made. */
async function newConversation(
  knex: Knex,
  companyId: number,
  input: InboundMessage,
  identifiers: string[],
  media: StoredMedia | null,
): Promise<Written> {
  const side = input.contact;
  const number = cleanNumber(side.number);
  const [row] = await runStatement<{
    message: Record<string, unknown> | null;
    contact: { id: number; name: string; url_picture: string | null };
    ticket: Record<string, unknown>;
  }>(
    knex,
    NEW_CONVERSATION,
    valuesOf(NEW_CONVERSATION, {
      ...inboundValues(input, media),
      companyId,
      whatsappId: input.whatsappId,
      channel: input.channel.slice(0, 20),
      identityChannel: input.channel,
      channelMessageId: input.message.id,
      name: (side.name?.trim() || number || identifiers[0] || '').slice(0, 250),
      number,
      email: side.email?.slice(0, 255) || null,
      urlPicture: side.urlPicture ?? null,
      identifiers,
      queueId: input.queueId ?? null,
    }),
  );
  if (!row?.message) throw new RetryReceive();
  const ticketRow = camelKeys<TicketRow>(row.ticket);
  const contact: FoundContact = { id: row.contact.id, name: row.contact.name, urlPicture: row.contact.url_picture, ticket: null };
  return {
    ticket: {
      id: ticketRow.id,
      uuid: ticketRow.uuid,
      status: ticketRow.status,
      userId: ticketRow.userId,
      queueId: ticketRow.queueId,
      isGroup: ticketRow.isGroup,
    },
    ticketCreated: true,
    ownerId: contact.id,
    senderContact: contact,
    record: camelKeys<MessageRecord>(row.message),
    ticketRow,
  };
}

/** The stored message of a channel id, for a redelivery's answer. */
async function existingResult(knex: Knex, companyId: number, input: InboundMessage): Promise<InboundResult | null> {
  const row = await knex('messages as m')
    .join('tickets as t', 't.id', 'm.ticketId')
    .where({ 'm.companyId': companyId, 'm.whatsappId': input.whatsappId, 'm.channelMessageId': input.message.id })
    .first('m.id', 'm.ticketId', 't.uuid', 't.contactId');
  if (!row) return null;
  return {
    contactId: row.contactId,
    ticketId: row.ticketId,
    ticketUuid: row.uuid,
    messageId: Number(row.id),
    created: false,
    ticketCreated: false,
  };
}

/** Makes the contact of a party that has none, and remembers every identifier it is missing. */
async function ensureContact(
  trx: Knex.Transaction,
  companyId: number,
  input: InboundMessage,
  party: Party,
  isGroup: boolean,
): Promise<FoundContact> {
  let contact = party.contact;
  const created = contact === null;
  if (!contact) {
    const number = cleanNumber(party.side.number);
    const name = (party.side.name?.trim() || number || party.side.identifiers[0] || '').slice(0, 250);
    const [row] = await trx('contacts')
      .insert({
        companyId,
        name,
        number,
        email: party.side.email?.slice(0, 255) || null,
        urlPicture: party.side.urlPicture ?? null,
        isGroup,
        channel: input.channel.slice(0, 20),
        whatsappId: input.whatsappId,
      })
      .returning(['id', 'name', 'urlPicture']);
    contact = { id: row.id, name: row.name, urlPicture: row.urlPicture, ticket: null };
  }
  if (party.missing.length > 0) {
    const stored = await trx('contactIdentities')
      .insert(party.missing.map((identifier) => ({ companyId, contactId: contact.id, channel: input.channel, identifier })))
      .onConflict(['companyId', 'channel', 'identifier'])
      .ignore()
      .returning('identifier');
    // a new contact whose identifier another receive stored meanwhile: that one is the contact
    if (created && stored.length < party.missing.length) throw new RetryReceive();
  }
  return contact;
}

/** One attempt of `receive`, in the company's scope. */
async function receiveOnce(ctx: PluginContext, companyId: number, input: InboundMessage): Promise<InboundResult> {
  const { knex } = ctx.db;
  const { whatsappId: connectionId } = input;
  const group = input.group ?? null;
  const contactIds = cleanIdentifiers(input.contact.identifiers);
  const groupIds = group ? cleanIdentifiers(group.identifiers) : [];
  if (contactIds.length === 0 || (group && groupIds.length === 0)) {
    throw new Error('inbox receive: a contact (and a group) needs at least one identifier');
  }

  // 1. a file first, before the rows that point at it (unless this channel id is stored already)
  let media: StoredMedia | null = null;
  if (input.message.media) {
    const existing = await existingResult(knex, companyId, input);
    if (existing) return existing;
    media = await storeInboundMedia(ctx, companyId, `inbound-${connectionId}`, input.message.media);
  }
  let written: Written | InboundResult;
  try {
    written = await writeReceive(ctx, companyId, input, contactIds, groupIds, media);
  } catch (error) {
    if (media) await ctx.storage.delete(companyId, media.key).catch(() => {});
    throw error;
  }
  if ('created' in written) {
    // stored already: this copy of the file is not needed
    if (media) await ctx.storage.delete(companyId, media.key).catch(() => {});
    return written;
  }

  // 3. tell: the ticket (new or moved up the list), the message, the bus
  const { ticket, ticketCreated, ownerId, senderContact, ticketRow } = written;
  const record = written.record as MessageRecord;
  const messageId = Number(record.id);
  const apiTicket = await notifyTicketChanged(
    ctx,
    companyId,
    ticket.id,
    ticketCreated ? null : (written.reopenedFrom ?? ticket),
    ticketRow ? ticketFromRow(ticketRow, false) : undefined,
  );
  if (apiTicket) {
    const quoted = record.quotedMsgId !== null ? ((await loadMessage(ctx, companyId, Number(record.quotedMsgId))) ?? null) : null;
    const quotedMsg = quoted ? (({ quotedMsg: _, ...rest }) => rest)(quoted) : null;
    const message = messageFromRecord(ctx, companyId, record, senderContact, quotedMsg);
    await inboxState(ctx).realtime.messageCreated(companyId, message, apiTicket);
  }
  // history starts no automation (chatbot, timers, lanes): see InboundMessage.imported
  if (input.imported === true) {
    return { contactId: ownerId, ticketId: ticket.id, ticketUuid: ticket.uuid, messageId, created: true, ticketCreated };
  }
  await ctx.events.publish('message.received', {
    companyId,
    ticketId: ticket.id,
    messageId,
    contactId: ownerId,
    whatsappId: connectionId,
    fromMe: input.message.fromMe === true,
    ticketCreated,
    body: String(record.body ?? ''),
    ticket: { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId, isGroup: ticket.isGroup },
  });
  return { contactId: ownerId, ticketId: ticket.id, ticketUuid: ticket.uuid, messageId, created: true, ticketCreated };
}

/**
 * The general path: finds the parties by number when their identifiers are unknown, and writes contact,
 * identities, ticket and message (one transaction when anything is made). Answers the redelivery's result
 * when the channel id is stored already.
 */
async function receiveGeneral(
  ctx: PluginContext,
  companyId: number,
  input: InboundMessage,
  contactIds: string[],
  groupIds: string[],
  rows: LookupRow[],
  media: StoredMedia | null,
  known?: Looked,
): Promise<Written | InboundResult> {
  const { knex } = ctx.db;
  const group = input.group ?? null;
  // the sender's identifiers name several contacts (one person who wrote from an identifier each before
  // the channel told they are one): they become one, then the receive starts over and finds it
  const senders = new Set(rows.filter((row) => contactIds.includes(row.identifier)).map((row) => row.contactId));
  if (senders.size > 1) {
    const outcome = await ctx.db.transaction((trx) => mergeContacts(trx, companyId, [...senders]));
    if (outcome) await announceMerge(ctx, companyId, outcome);
    throw new RetryReceive();
  }
  const sender = resolveParty(input.contact, contactIds, rows);
  const owner = group ? resolveParty(group, groupIds, rows) : sender;
  // … else by number (the first statement looked it up already for a sender alone)
  for (const party of group ? [sender, owner] : [sender]) {
    const number = cleanNumber(party.side.number);
    if (party.contact || !number) continue;
    const [row] = known
      ? known.byNumber
        ? [known.byNumber]
        : []
      : ((await withActiveTicket(
          knex('contacts as c').where({ 'c.companyId': companyId, 'c.number': number }),
          knex,
          input.whatsappId,
        )) as LookupRow[]);
    if (row) party.contact = toFound(row);
  }
  // a redelivery after the ticket was closed must not open a new one
  if (owner.contact?.ticket == null) {
    const existing = known ? known.prior : await existingResult(knex, companyId, input);
    if (existing) return existing;
  }
  const written = await writeRows(ctx, companyId, input, sender, owner, media);
  if (written.record) return written;
  const existing = await existingResult(knex, companyId, input);
  if (!existing) throw new RetryReceive();
  return existing;
}

/** The rows of a receive (its file, if any, already stored), or the redelivery's result. */
async function writeReceive(
  ctx: PluginContext,
  companyId: number,
  input: InboundMessage,
  contactIds: string[],
  groupIds: string[],
  media: StoredMedia | null,
): Promise<Written | InboundResult> {
  const { knex } = ctx.db;
  const { whatsappId: connectionId, channel } = input;
  const group = input.group ?? null;
  let rows: LookupRow[];
  let written: Written | null = null;
  let known: Looked | undefined;
  if (!group) {
    // 2. the usual case in one statement: a known sender with an active ticket
    const fast = await insertOnKnownTicket(knex, companyId, input, contactIds, media);
    if (fast.duplicate) {
      const existing = await existingResult(knex, companyId, input);
      if (!existing) throw new RetryReceive();
      return existing;
    }
    rows = fast.rows;
    if (fast.record) {
      const contact = toFound(rows[0] as LookupRow);
      written = {
        ticket: contact.ticket as ActiveTicket,
        ticketCreated: false,
        ownerId: contact.id,
        senderContact: contact,
        record: fast.record,
        ticketRow: fast.ticketRow,
      };
    } else if (rows.length === 0 && !fast.byNumber && !fast.prior) {
      // nobody by any identifier or the number, and no such message: a new person, in one statement
      return newConversation(knex, companyId, input, contactIds, media);
    } else {
      known = { byNumber: fast.byNumber, prior: fast.prior };
    }
  } else {
    // who: every identifier of the sender and of the group in one query, with the active ticket
    rows = (await withActiveTicket(
      knex('contactIdentities as ci')
        .join('contacts as c', (join) => {
          join.on('c.id', 'ci.contactId').andOn('c.companyId', 'ci.companyId');
        })
        .where('ci.companyId', companyId)
        .where('ci.channel', channel)
        .whereIn('ci.identifier', [...contactIds, ...groupIds]),
      knex,
      connectionId,
    ).select('ci.identifier')) as LookupRow[];
  }
  return written ?? receiveGeneral(ctx, companyId, input, contactIds, groupIds, rows, media, known);
}

/** What the first statement of a receive looked up for the general path (a sender alone, not a group). */
interface Looked {
  byNumber: LookupRow | null;
  prior: InboundResult | null;
}

/** What the writes of a receive made. `record` is null when the channel id was stored meanwhile. */
interface Written {
  ticket: ActiveTicket;
  ticketCreated: boolean;
  /** The ticket's contact (the group for a group message). */
  ownerId: number;
  /** The message's contact (the participant for a group message). */
  senderContact: FoundContact;
  record: MessageRecord | null;
  /** The ticket after the message's update (as `loadTicket` reads it), when a message was stored. */
  ticketRow: TicketRow | null;
  /** The ticket was closed and the message reopened it (the reopen window): its state before. */
  reopenedFrom?: VisibleTicketFields;
}

/** A closed ticket the reopen window gives back, as it was before. */
interface ReopenableTicket {
  id: number;
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
}

/**
 * The reopen window (the connection's timeCreateNewTicket, in minutes): the contact's ticket on this
 * connection closed within the window, which a message of theirs reopens instead of opening a new one.
 * Read only on the new-ticket path; the connection's profile is cached, so a connection without a window
 * costs no query.
 */
async function reopenableTicket(
  ctx: PluginContext,
  companyId: number,
  connectionId: number,
  contactId: number,
): Promise<ReopenableTicket | null> {
  if (!ctx.services.has('connections')) return null;
  const profile = await ctx.services.use('connections').profile(companyId, connectionId);
  if (!profile || profile.timeCreateNewTicket <= 0) return null;
  const since = new Date(Date.now() - profile.timeCreateNewTicket * 60_000);
  const row = await ctx.db
    .knex('tickets')
    .where({ companyId, contactId, whatsappId: connectionId, status: 'closed' })
    .where('closedAt', '>=', since)
    .orderBy('closedAt', 'desc')
    .first('id', 'userId', 'queueId', 'isGroup');
  return (row as ReopenableTicket | undefined) ?? null;
}

/** Writes a receive's rows: one statement when contact and ticket exist, else one transaction. */
async function writeRows(
  ctx: PluginContext,
  companyId: number,
  input: InboundMessage,
  sender: Party,
  owner: Party,
  media: StoredMedia | null,
): Promise<Written> {
  const isGroup = input.group != null;
  const missing = sender.missing.length + (isGroup ? owner.missing.length : 0);
  const active = owner.contact?.ticket ?? null;
  if (active && sender.contact && owner.contact && missing === 0) {
    const { record, ticketRow } = await insertInbound(ctx.db.knex, companyId, input, {
      ticketId: active.id,
      ticketQueueId: active.queueId,
      contactId: sender.contact.id,
      media,
    });
    return { ticket: active, ticketCreated: false, ownerId: owner.contact.id, senderContact: sender.contact, record, ticketRow };
  }
  const reopenable = owner.contact && !active ? await reopenableTicket(ctx, companyId, input.whatsappId, owner.contact.id) : null;
  try {
    return await ctx.db.transaction(async (trx) => {
      const ownerContact = await ensureContact(trx, companyId, input, owner, isGroup);
      const participant = isGroup ? await ensureContact(trx, companyId, input, sender, false) : ownerContact;
      let ticket = ownerContact.ticket;
      let ticketCreated = false;
      let reopenedFrom: VisibleTicketFields | undefined;
      if (!ticket && reopenable) {
        // back to the queue it was in, for anyone to accept (pending, no user); a concurrent receive that
        // reopened it first leaves nothing to update here, and the one-active-ticket index then sends
        // this attempt round again to find that ticket
        const [row] = await trx('tickets')
          .where({ companyId, id: reopenable.id, status: 'closed' })
          .update({ status: 'pending', userId: null, closedAt: null, updatedAt: new Date() })
          .returning(['id', 'uuid', 'status', 'userId', 'queueId', 'isGroup']);
        if (row) {
          ticket = row as ActiveTicket;
          reopenedFrom = {
            status: 'closed',
            userId: reopenable.userId,
            queueId: reopenable.queueId,
            isGroup: reopenable.isGroup,
          };
          await trx('ticketLogs').insert({ companyId, ticketId: ticket.id, type: 'reopen', queueId: ticket.queueId });
        }
      }
      if (!ticket) {
        const [row] = await trx('tickets')
          .insert({
            companyId,
            contactId: ownerContact.id,
            whatsappId: input.whatsappId,
            channel: input.channel.slice(0, 20),
            isGroup,
            status: 'pending',
            queueId: input.queueId ?? null,
          })
          .returning(['id', 'uuid', 'status', 'userId', 'queueId', 'isGroup']);
        ticket = row as ActiveTicket;
        ticketCreated = true;
        await trx('ticketLogs').insert({ companyId, ticketId: ticket.id, type: 'create', queueId: ticket.queueId });
      }
      const { record, ticketRow } = await insertInbound(trx, companyId, input, {
        ticketId: ticket.id,
        ticketQueueId: ticket.queueId,
        contactId: participant.id,
        media,
      });
      // stored meanwhile by a concurrent receive: undo what this one made
      if (!record) throw new DuplicateMessage();
      return { ticket, ticketCreated, ownerId: ownerContact.id, senderContact: participant, record, ticketRow, reopenedFrom };
    });
  } catch (error) {
    if (!(error instanceof DuplicateMessage)) throw error;
    return {
      ticket: active as ActiveTicket,
      ticketCreated: false,
      ownerId: 0,
      senderContact: sender.contact as FoundContact,
      record: null,
      ticketRow: null,
    };
  }
}

/**
 * The one entry of every inbound message (the channel contract): finds or makes the contact (by any
 * identifier, else by number) and remembers its identifiers, finds the active ticket on the connection
 * or opens one (pending; a group's ticket belongs to the group contact), stores the message once per
 * channel id, counts it unread when it came from the contact, and emits the ticket and message events
 * and `message.received`. Two receives racing for a new contact make one contact and one ticket (the
 * loser of a unique index retries and finds the winner's rows).
 */
export async function receiveInbound(ctx: PluginContext, input: InboundMessage): Promise<InboundResult> {
  const companyId = input.companyId ?? currentTenant()?.companyId;
  if (!Number.isInteger(companyId) || (companyId as number) < 1) throw new Error('inbox receive: companyId is required');
  return runInTenant({ companyId: companyId as number }, async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await receiveOnce(ctx, companyId as number, input);
        if (result.created) messageCounters(ctx).inbound.inc({ channel: input.channel });
        return result;
      } catch (error) {
        const retryable = error instanceof RetryReceive || isUniqueViolation(error);
        if (!retryable || attempt >= RECEIVE_ATTEMPTS) throw error;
      }
    }
  });
}
