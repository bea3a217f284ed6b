import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { ZipFile } from 'yazl';
import { notifyContactChanged, requireContact } from '../directory/contact.service';
import { notifyTicketChanged, visibleState } from '../tickets/ticket-notify';

/** Messages removed per statement: small enough that a batch never holds locks for long. */
export const PURGE_BATCH = 500;
/** Storage calls made at once (files deleted in a batch, files looked up for an export). */
const STORAGE_CALLS_AT_ONCE = 8;
/** Messages read per query while an export streams them. */
const EXPORT_PAGE = 500;

/** A message row as the purge reads it. */
interface PurgeRow {
  id: string;
  mediaPath: string | null;
  ticketId: number;
}

/** What a purge removed. */
export interface PurgeCount {
  messages: number;
  files: number;
}

/**
 * Removes messages in batches, each batch's files first and then its rows, so that a run stopped at any
 * point (a killed worker, a storage outage) leaves rows whose files may be gone but never files no row
 * names: the next run picks the same rows up and finishes them (deleting a missing file is no error). A
 * file another message still names (a forward shares its original's) is kept.
 * `nextBatch` selects up to `PURGE_BATCH` rows of the company (`id`, `mediaPath`, `ticketId`); `beforeBatch`
 * answering false stops the purge there (what was removed so far is counted).
 */
export async function purgeMessages(
  ctx: PluginContext,
  companyId: number,
  nextBatch: (knex: Knex) => Knex.QueryBuilder,
  beforeBatch: () => Promise<boolean> = async () => true,
): Promise<PurgeCount & { ticketIds: number[] }> {
  const { knex } = ctx.db;
  const total = { messages: 0, files: 0 };
  const tickets = new Set<number>();
  for (;;) {
    if (!(await beforeBatch())) break;
    const rows = (await nextBatch(knex)) as PurgeRow[];
    if (rows.length === 0) break;
    const ids = rows.map((row) => row.id);
    const paths = [...new Set(rows.flatMap((row) => (row.mediaPath ? [row.mediaPath] : [])))];
    const stillNamed =
      paths.length === 0
        ? []
        : ((await knex('messages')
            .where('companyId', companyId)
            .whereIn('mediaPath', paths)
            .whereNotIn('id', ids)
            .distinct('mediaPath')) as Array<{ mediaPath: string }>);
    const kept = new Set(stillNamed.map((row) => row.mediaPath));
    const doomed = paths.filter((key) => !kept.has(key));
    for (let start = 0; start < doomed.length; start += STORAGE_CALLS_AT_ONCE) {
      await Promise.all(doomed.slice(start, start + STORAGE_CALLS_AT_ONCE).map((key) => deleteStored(ctx, companyId, key)));
    }
    const removed = await knex('messages').where('companyId', companyId).whereIn('id', ids).delete();
    total.messages += removed;
    total.files += doomed.length;
    for (const row of rows) tickets.add(row.ticketId);
    if (rows.length < PURGE_BATCH) break;
  }
  return { ...total, ticketIds: [...tickets] };
}

/** Deletes a stored file; a key storage refuses (written by an older version) names no file it holds. */
async function deleteStored(ctx: PluginContext, companyId: number, key: string): Promise<void> {
  try {
    await ctx.storage.delete(companyId, key);
  } catch (error) {
    if (error instanceof AppError && error.code === 'ERR_VALIDATION') return;
    throw error;
  }
}

/** Writes one line of the company's privacy log. */
async function logAction(
  knex: Knex,
  entry: { companyId: number; action: 'export' | 'erase' | 'retention'; contactId?: number; userId?: number; details: object },
): Promise<void> {
  await knex('privacyLog').insert({
    companyId: entry.companyId,
    action: entry.action,
    contactId: entry.contactId ?? null,
    userId: entry.userId ?? null,
    details: JSON.stringify(entry.details),
  });
}

// ---------------------------------------------------------------- export

/** A zip entry's name for a stored file: the message id keeps two files of one name apart. */
function mediaEntryName(messageId: string, key: string, name: string | null): string {
  // folders and control characters out: the name is a single entry under media/
  const base =
    Array.from(name ?? path.basename(key), (char) => (char === '/' || char === '\\' || char.charCodeAt(0) < 32 ? '_' : char))
      .join('')
      .slice(0, 120) || 'file';
  return `media/${messageId}-${base}`;
}

/**
 * One contact's data as a zip, streamed as it is built: `contact.json` (the contact, its extra fields,
 * tags and channel identities), `tickets.json` (its tickets with their notes), `messages.jsonl` (every
 * message of its tickets and every message it wrote in a group, a JSON object a line, read from the
 * database a page at a time) and `media/` (the stored files those messages name). The export is logged.
 */
export async function exportContact(
  ctx: PluginContext,
  companyId: number,
  userId: number,
  contactId: number,
): Promise<{ fileName: string; stream: Readable }> {
  const { knex } = ctx.db;
  await requireContact(contactId);
  const contact = await knex('contacts')
    .where({ companyId, id: contactId })
    .first(
      'id',
      'name',
      'number',
      'email',
      'channel',
      'isGroup',
      'active',
      'disableBot',
      'acceptAudioMessage',
      'lgpdAcceptedAt',
      'createdAt',
      'updatedAt',
    );
  const [extraInfo, tags, identities, tickets] = await Promise.all([
    knex('contactCustomFields').where({ companyId, contactId }).orderBy('id').select('name', 'value'),
    knex('contactTags as ct')
      .join('tags as t', 't.id', 'ct.tagId')
      .where({ 'ct.companyId': companyId, 'ct.contactId': contactId })
      .orderBy('t.name')
      .select('t.name', 't.color'),
    knex('contactIdentities').where({ companyId, contactId }).orderBy('id').select('channel', 'identifier', 'createdAt'),
    knex('tickets as t')
      .leftJoin('queues as q', 'q.id', 't.queueId')
      .leftJoin('users as u', 'u.id', 't.userId')
      .where({ 't.companyId': companyId, 't.contactId': contactId })
      .orderBy('t.id')
      .select(
        't.id',
        't.uuid',
        't.status',
        't.channel',
        't.isGroup',
        'q.name as queue',
        'u.name as user',
        't.createdAt',
        't.updatedAt',
        't.closedAt',
      ),
  ]);
  const ticketIds = tickets.map((ticket: { id: number }) => ticket.id);
  const notes = await knex('ticketNotes as n')
    .leftJoin('users as u', 'u.id', 'n.userId')
    .where('n.companyId', companyId)
    .where((where) => where.whereIn('n.ticketId', ticketIds).orWhere('n.contactId', contactId))
    .orderBy('n.id')
    .select('n.ticketId', 'n.note', 'u.name as user', 'n.createdAt');

  const ofContact = (query: Knex.QueryBuilder) =>
    query.where('companyId', companyId).where((where) => where.whereIn('ticketId', ticketIds).orWhere('contactId', contactId));
  const media = (await ofContact(knex('messages'))
    .whereNotNull('mediaPath')
    .orderBy('id')
    .select('id', 'mediaPath', 'mediaName')) as Array<{ id: string; mediaPath: string; mediaName: string | null }>;
  // only files storage still holds get an entry: a message may name a file removed since (by hand, or a failed
  // upload); a storage outage fails the export (before anything is sent or logged) rather than leaving files out
  const entries = new Map<string, string>();
  const present: Array<{ id: string; key: string; entry: string }> = [];
  for (let start = 0; start < media.length; start += STORAGE_CALLS_AT_ONCE) {
    const slice = media.slice(start, start + STORAGE_CALLS_AT_ONCE);
    const found = await Promise.all(slice.map((file) => ctx.storage.stat(companyId, file.mediaPath)));
    slice.forEach((file, index) => {
      if (!found[index]) return;
      const entry = mediaEntryName(file.id, file.mediaPath, file.mediaName);
      entries.set(file.id, entry);
      present.push({ id: file.id, key: file.mediaPath, entry });
    });
  }

  await logAction(knex, {
    companyId,
    action: 'export',
    contactId,
    userId,
    details: { tickets: tickets.length, files: present.length },
  });

  const zip = new ZipFile();
  const output = zip.outputStream as PassThrough;
  // yazl reports a failed entry (a storage read, a database page) on the ZipFile, and a lazy entry's own
  // stream errors go unheard: either would be an unhandled 'error' that ends the process. The download
  // is cut instead, so the client sees a broken transfer, never a complete-looking archive.
  const abort = (error: Error) => {
    if (!output.destroyed) output.destroy(error);
  };
  zip.on('error', abort);
  // a cut download (an error, or the client gone) also releases what the entries still read from
  const sources = new Set<Readable>();
  output.once('close', () => {
    for (const source of sources) source.destroy();
  });
  const guarded = (stream: Readable) => {
    if (output.destroyed) stream.destroy();
    else sources.add(stream);
    return stream.on('error', abort).once('close', () => sources.delete(stream));
  };
  const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  zip.addBuffer(json({ ...contact, extraInfo, tags, identities }), 'contact.json');
  zip.addBuffer(
    json(tickets.map((ticket: { id: number }) => ({ ...ticket, notes: notes.filter((note) => note.ticketId === ticket.id) }))),
    'tickets.json',
  );
  zip.addReadStreamLazy('messages.jsonl', (callback) => {
    callback(null, guarded(Readable.from(messageLines(knex, ofContact, entries))));
  });
  for (const file of present) {
    zip.addReadStreamLazy(file.entry, { compress: false }, (callback) => {
      ctx.storage.get(companyId, file.key).then(
        // a file deleted since the listing: an empty entry rather than a broken archive
        (stream) => callback(null, guarded(stream ?? Readable.from([]))),
        (error: Error) => callback(error, new PassThrough()),
      );
    });
  }
  zip.end();
  return { fileName: `contact-${contactId}.zip`, stream: output };
}

/** The contact's messages as JSON lines, a page at a time, oldest first. */
async function* messageLines(
  knex: Knex,
  ofContact: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  entries: Map<string, string>,
): AsyncGenerator<string> {
  let after = '0';
  for (;;) {
    const page = (await ofContact(knex('messages'))
      .where('id', '>', after)
      .orderBy('id')
      .limit(EXPORT_PAGE)
      .select(
        'id',
        'ticketId',
        'createdAt',
        'fromMe',
        'body',
        'mediaType',
        'mediaName',
        'mediaPath',
        'isPrivate',
        'isDeleted',
        'isEdited',
        'isForwarded',
      )) as Array<Record<string, unknown> & { id: string; mediaPath: string | null }>;
    for (const { mediaPath, ...message } of page) {
      yield `${JSON.stringify({ ...message, file: entries.get(message.id) ?? null })}\n`;
    }
    if (page.length < EXPORT_PAGE) return;
    after = (page.at(-1) as { id: string }).id;
  }
}

// ---------------------------------------------------------------- erasure

/** What an erasure removed. */
export interface ErasureResult {
  contactId: number;
  tickets: number;
  messages: number;
  files: number;
}

/** The name an erased contact keeps: no personal data, still something to show in old reports. */
export const erasedName = (contactId: number) => `#${contactId}`;

/**
 * Erases one contact's personal data: its messages (and the ones it wrote in groups) and their stored
 * files, its notes, extra fields, tags and channel identities; its tickets stay as anonymous shells
 * (closed, no last message) so reports still count them; the contact keeps only its id and a neutral
 * name. `confirmation` must repeat the contact's name. Refused while one of its tickets is open with an
 * agent, who would otherwise see a conversation vanish mid-reply: close or return it first. Other
 * tickets still active are closed. Logged with who and when. Running it again finishes an interrupted one.
 */
export async function eraseContact(
  ctx: PluginContext,
  companyId: number,
  userId: number,
  contactId: number,
  confirmation: string,
): Promise<ErasureResult> {
  const { knex } = ctx.db;
  const contact = await requireContact(contactId);
  if (confirmation.trim() !== contact.name.trim()) throw new AppError('ERR_ERASURE_CONFIRMATION');
  type ErasedTicket = { id: number; status: string; userId: number | null; queueId: number | null; isGroup: boolean };

  // The contact's tickets are locked while they are checked and closed, so an agent can't accept one after
  // the check; its identities go in the same transaction, so no new message finds the contact afterwards.
  const tickets = await knex.transaction(async (trx) => {
    const locked = (await trx('tickets')
      .where({ companyId, contactId })
      .orderBy('id')
      .forUpdate()
      .select('id', 'status', 'userId', 'queueId', 'isGroup')) as ErasedTicket[];
    if (locked.some((ticket) => ticket.status === 'open' && ticket.userId !== null)) {
      throw new AppError('ERR_ERASURE_OPEN_TICKET');
    }
    await trx('contactIdentities').where({ companyId, contactId }).delete();
    await trx('tickets')
      .where('companyId', companyId)
      .whereIn(
        'id',
        locked.map((ticket) => ticket.id),
      )
      .update({
        lastMessage: '',
        unreadMessages: 0,
        status: 'closed',
        closedAt: trx.raw('coalesce(closed_at, now())'),
        updatedAt: trx.fn.now(),
      });
    await trx('contactCustomFields').where({ companyId, contactId }).delete();
    await trx('contactTags').where({ companyId, contactId }).delete();
    await trx('contacts')
      .where({ companyId, id: contactId })
      .update({
        name: erasedName(contactId),
        number: null,
        email: null,
        urlPicture: null,
        lgpdAcceptedAt: null,
        updatedAt: trx.fn.now(),
      });
    return locked;
  });
  const ticketIds = tickets.map((ticket) => ticket.id);
  // the words its messages added to the company's search vocabulary, to drop those nothing else says: its
  // own tickets' and those of the group tickets it wrote in (purging rebuilds each ticket's words)
  const wroteIn = knex('messages').where({ companyId, contactId }).distinct('ticketId');
  const words = (
    (await knex('ticketSearchWords')
      .where('companyId', companyId)
      .where((where) => where.whereIn('ticketId', ticketIds).orWhereIn('ticketId', wroteIn))
      .distinct('word')) as Array<{
      word: string;
    }>
  ).map((row) => row.word);

  // after the commit: a message written while the tickets were being closed is purged with the rest
  const purged = await purgeMessages(ctx, companyId, (db) =>
    db('messages')
      .where('companyId', companyId)
      .where((where) => where.whereIn('ticketId', ticketIds).orWhere('contactId', contactId))
      .orderBy('id')
      .limit(PURGE_BATCH)
      .select('id', 'mediaPath', 'ticketId'),
  );

  await knex.transaction(async (trx) => {
    await trx('ticketNotes')
      .where('companyId', companyId)
      .where((where) => where.whereIn('ticketId', ticketIds).orWhere('contactId', contactId))
      .delete();
    if (words.length > 0) {
      await trx.raw(
        `DELETE FROM search_vocabulary v WHERE v.company_id = ? AND v.word = ANY(?::text[])
           AND NOT EXISTS (SELECT 1 FROM ticket_search_words w WHERE w.company_id = v.company_id AND w.word = v.word)`,
        [companyId, words],
      );
    }
    await logAction(trx, {
      companyId,
      action: 'erase',
      contactId,
      userId,
      details: { tickets: tickets.length, messages: purged.messages, files: purged.files },
    });
  });

  // every ticket changed (closed, or its last message emptied): the lists showing them are told
  for (const ticket of tickets) {
    await notifyTicketChanged(ctx, companyId, ticket.id, visibleState(ticket as Parameters<typeof visibleState>[0]));
  }
  await notifyContactChanged(ctx, companyId, contactId);
  return { contactId, tickets: tickets.length, messages: purged.messages, files: purged.files };
}

// ---------------------------------------------------------------- retention

/** The company's retention: months messages are kept, or null (kept for good). */
export async function retentionOf(knex: Knex, companyId: number): Promise<{ months: number | null }> {
  const row = (await knex('privacyRetention').where({ companyId }).first('months')) as { months: number } | undefined;
  return { months: row?.months ?? null };
}

export async function setRetention(
  knex: Knex,
  companyId: number,
  userId: number,
  months: number | null,
): Promise<{ months: number | null }> {
  if (months === null) await knex('privacyRetention').where({ companyId }).delete();
  else {
    await knex('privacyRetention')
      .insert({ companyId, months, updatedBy: userId, updatedAt: knex.fn.now() })
      .onConflict('companyId')
      .merge();
  }
  return { months };
}

/** Each company with a retention set: the sweep enqueues one job per company. */
export async function companiesWithRetention(knex: Knex): Promise<number[]> {
  const rows = (await knex('privacyRetention').orderBy('companyId').select('companyId')) as Array<{ companyId: number }>;
  return rows.map((row) => row.companyId);
}

/** How long a retention run's claim on its company lasts without a new batch (a killed worker's runs out). */
export const RETENTION_LEASE_SECONDS = 600;

const leaseEnd = (knex: Knex) => knex.raw(`now() + interval '${RETENTION_LEASE_SECONDS} seconds'`);

/** Claims the company's retention run: the claim's token, or null while another run holds it. */
async function claimRetention(knex: Knex, companyId: number): Promise<string | null> {
  const token = randomUUID();
  const claimed = await knex('privacyRetention')
    .where({ companyId })
    .where((free) => free.whereNull('leaseUntil').orWhere('leaseUntil', '<', knex.fn.now()))
    .update({ leaseUntil: leaseEnd(knex), leaseToken: token });
  return claimed > 0 ? token : null;
}

/** Extends the run's claim; false once it is no longer this run's (it ran out and another run took it). */
async function renewRetention(knex: Knex, companyId: number, token: string): Promise<boolean> {
  const renewed = await knex('privacyRetention')
    .where({ companyId, leaseToken: token })
    .update({ leaseUntil: leaseEnd(knex) });
  return renewed > 0;
}

/**
 * Removes the company's messages older than its retention, with their files, in batches (see
 * `purgeMessages`: a run stopped halfway is finished by the next), then empties the last message of the
 * tickets left with none. Logs what it removed; removes nothing when the company has no retention, or
 * while another run holds the company's claim (`leaseUntil`, renewed every batch: the claim of a worker
 * killed mid-run runs out after `RETENTION_LEASE_SECONDS` and the next hourly run takes over). The claim
 * carries its run's `leaseToken`: a run renews and releases only its own, and stops at the next batch
 * once another run has taken the company over.
 */
export async function applyRetention(ctx: PluginContext, companyId: number, now = new Date()): Promise<PurgeCount> {
  const { knex } = ctx.db;
  const { months } = await retentionOf(knex, companyId);
  const token = months === null ? null : await claimRetention(knex, companyId);
  if (months === null || token === null) return { messages: 0, files: 0 };
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  let purged: Awaited<ReturnType<typeof purgeMessages>>;
  try {
    purged = await purgeMessages(
      ctx,
      companyId,
      (db) =>
        db('messages')
          .where('companyId', companyId)
          .where('createdAt', '<', cutoff)
          .orderBy('createdAt')
          .limit(PURGE_BATCH)
          .select('id', 'mediaPath', 'ticketId'),
      // a run that lost its claim stops: the run that took it over does the rest
      () => renewRetention(knex, companyId, token),
    );
  } finally {
    await knex('privacyRetention').where({ companyId, leaseToken: token }).update({ leaseUntil: null, leaseToken: null });
  }
  if (purged.ticketIds.length > 0) {
    await knex('tickets')
      .where('companyId', companyId)
      .whereIn('id', purged.ticketIds)
      .whereNotExists(knex('messages').whereRaw('messages.ticket_id = tickets.id').select(knex.raw('1')))
      .update({ lastMessage: '' });
  }
  if (purged.messages > 0) {
    await logAction(knex, {
      companyId,
      action: 'retention',
      details: { months, before: cutoff.toISOString(), messages: purged.messages, files: purged.files },
    });
  }
  return { messages: purged.messages, files: purged.files };
}

/** The latest entries of the company's privacy log, newest first. */
export async function privacyLog(knex: Knex, companyId: number, limit = 50) {
  const rows = await knex('privacyLog as l')
    .leftJoin('users as u', 'u.id', 'l.userId')
    .where('l.companyId', companyId)
    .orderBy('l.id', 'desc')
    .limit(limit)
    .select('l.id', 'l.action', 'l.contactId', 'l.userId', 'u.name as userName', 'l.details', 'l.createdAt');
  return rows.map((row: Record<string, unknown>) => ({
    id: row.id as number,
    action: row.action as 'export' | 'erase' | 'retention',
    contactId: (row.contactId as number | null) ?? null,
    user: row.userId ? { id: row.userId as number, name: String(row.userName ?? '') } : null,
    details: row.details as Record<string, unknown>,
    createdAt: (row.createdAt as Date).toISOString(),
  }));
}
