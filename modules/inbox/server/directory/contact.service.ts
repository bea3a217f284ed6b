import { AppError, currentTenant, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { type Channel, type Contact as ContactJson, type ContactSummary, LIST_PAGE_SIZE, type TagRef } from '../../shared/types';
import { Contact, ContactCustomField } from '../models/contact';
import { Ticket } from '../models/ticket';
import { inboxState } from '../state';
import { maskNumber } from '../tickets/serializer';
import { notifyTicketChanged, visibleState } from '../tickets/ticket-notify';
import type { Caller } from './caller';
import { contactSummaryColumns, loadContact, loadContacts, toContactSummary } from './contact-serializer';

declare module '@balcao/plugin-sdk/server' {
  interface BalcaoEvents {
    /** A contact was created through the directory (`POST /contacts`, an API key's call included). */
    'contact.created': { companyId: number; contactId: number };
  }
}

/** Contacts (docs/product/tickets-and-inbox.md#entities Contact, #validation, #calls-and-realtime-events Contacts; docs/inbox-api.md "Contacts"). */

/** Most rows one import takes. */
export const IMPORT_MAX_ROWS = 5_000;
/** Most contacts `GET /contacts/list` answers. */
export const CONTACT_LIST_LIMIT = 1_000;
/** Most tickets whose events one contact change or deletion sends. */
const TICKET_EVENTS_LIMIT = 200;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A validation refusal with the field that failed, like the schema validator's. */
export function invalid(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', { details: [{ field: `body.${field}`, message }] });
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A phone number as stored: formatting (spaces, `+`, `-`, `(`, `)`, `.`, `/`) stripped, then digits only,
 * 8 to 50 of them. Returns null for anything else.
 */
export function normalizeNumber(value: string | number): string | null {
  const digits = String(value).replace(/[\s+\-().,/]/g, '');
  return /^\d{8,50}$/.test(digits) ? digits : null;
}

/** A name as stored: trimmed, 2 to 250 characters. */
function normalizeName(value: string): string | null {
  const name = value.trim();
  return name.length >= 2 && name.length <= 250 ? name : null;
}

/** An e-mail as stored: trimmed, empty as null; a non-empty invalid one is undefined. */
function normalizeEmail(value: string | null | undefined): string | null | undefined {
  const email = (value ?? '').trim();
  if (email === '') return null;
  return email.length <= 255 && EMAIL.test(email) ? email : undefined;
}

function isUniqueNumberViolation(error: unknown): boolean {
  const pg = error as { code?: string; constraint?: string; nativeError?: { code?: string; constraint?: string } };
  const code = pg.code ?? pg.nativeError?.code;
  const constraint = pg.constraint ?? pg.nativeError?.constraint;
  return code === '23505' && constraint === 'contacts_company_number_unique';
}

// ---------------------------------------------------------------- reads

export interface ContactListQuery {
  searchParam?: string;
  pageNumber?: number;
  channel?: Channel;
  isGroup?: boolean;
}

/**
 * A page of contacts (40) by name: the search matches name, e-mail and number, case-insensitively (the
 * trigram indexes serve it). Masked viewers' searches don't match numbers, which they may not know.
 */
export async function listContacts(
  ctx: PluginContext,
  caller: Caller,
  query: ContactListQuery,
): Promise<{ contacts: ContactJson[]; hasMore: boolean; count: number }> {
  const { knex } = ctx.db;
  const page = query.pageNumber ?? 1;
  const base = knex('contacts as c').where('c.companyId', caller.companyId);
  if (query.channel) base.where('c.channel', query.channel);
  if (query.isGroup !== undefined) base.where('c.isGroup', query.isGroup);
  const search = (query.searchParam ?? '').trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    const digits = search.replace(/\D/g, '');
    const numberSearch = !caller.mask && digits.length > 0 && /^[\d\s+\-().]+$/.test(search);
    base.where((match) => {
      match.whereILike('c.name', pattern).orWhereILike('c.email', pattern);
      if (numberSearch) match.orWhereLike('c.number', `%${digits}%`);
    });
  }
  const [countRow, idRows] = await Promise.all([
    base.clone().count<{ count: number }[]>('* as count').first(),
    base
      .clone()
      .select('c.id')
      .orderBy([{ column: 'c.name' }, { column: 'c.id' }])
      .limit(LIST_PAGE_SIZE)
      .offset((page - 1) * LIST_PAGE_SIZE),
  ]);
  const count = Number(countRow?.count ?? 0);
  const contacts = await loadContacts(
    knex,
    caller.companyId,
    (idRows as Array<{ id: number }>).map((row) => row.id),
    caller.mask,
  );
  return { contacts, hasMore: (page - 1) * LIST_PAGE_SIZE + contacts.length < count, count };
}

/** Up to 1,000 contact summaries by name (pickers), optionally matching a search. */
export async function listContactSummaries(ctx: PluginContext, caller: Caller, searchParam?: string): Promise<ContactSummary[]> {
  const query = ctx.db
    .knex('contacts as c')
    .where('c.companyId', caller.companyId)
    .select(contactSummaryColumns('c'))
    .orderBy([{ column: 'c.name' }, { column: 'c.id' }])
    .limit(CONTACT_LIST_LIMIT);
  const search = (searchParam ?? '').trim();
  if (search) query.whereILike('c.name', `%${escapeLike(search)}%`);
  const rows = (await query) as ContactSummary[];
  return rows.map((row) => toContactSummary(row, caller.mask));
}

/** A contact as the caller may see it, or 404 ERR_NO_CONTACT_FOUND. */
export async function getContact(ctx: PluginContext, caller: Caller, id: number): Promise<ContactJson> {
  const contact = await loadContact(ctx.db.knex, caller.companyId, id, caller.mask);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
}

/** The contact with this number (formatting ignored): `{ contactId, urlPicture }`, or 404. */
export async function contactProfile(number: string): Promise<{ contactId: number; urlPicture: string | null }> {
  const digits = normalizeNumber(number);
  const contact = digits ? await Contact.query().findOne({ number: digits }).select('id', 'urlPicture') : undefined;
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return { contactId: contact.id, urlPicture: contact.urlPicture };
}

/** The contact's tags (by name), or 404 when the contact isn't the company's. */
export async function contactTags(ctx: PluginContext, caller: Caller, contactId: number): Promise<TagRef[]> {
  await requireContact(contactId);
  return ctx.db
    .knex('contactTags as ct')
    .join('tags as t', 't.id', 'ct.tagId')
    .where({ 'ct.companyId': caller.companyId, 'ct.contactId': contactId })
    .orderBy([{ column: 't.name' }, { column: 't.id' }])
    .select('t.id', 't.name', 't.color');
}

/** The company's contact with this id, or 404 ERR_NO_CONTACT_FOUND. */
export async function requireContact(id: number): Promise<Contact> {
  const contact = await Contact.query().findById(id);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
}

// ---------------------------------------------------------------- writes

export interface ContactInput {
  name: string;
  number?: string | null;
  email?: string | null;
  extraInfo?: Array<{ id?: number; name: string; value: string }>;
  disableBot?: boolean;
}

/**
 * After a contact changed: `company-{id}-contact` to the company's users (numbers masked for those who
 * get them masked), `contact.updated` on the bus, and — when its name, number or tags changed — a ticket
 * update for each of its tickets that is not closed, so ticket lists show it.
 */
export async function notifyContactChanged(
  ctx: PluginContext,
  companyId: number,
  contactId: number,
  options: { tickets?: boolean } = {},
): Promise<ContactJson | null> {
  const contact = await loadContact(ctx.db.knex, companyId, contactId);
  if (!contact) return null;
  await inboxState(ctx).realtime.contactChanged(companyId, contact);
  await ctx.events.publish('contact.updated', { companyId, contactId });
  if (options.tickets) {
    const tickets = await Ticket.query()
      .where('contactId', contactId)
      .whereNot('status', 'closed')
      .select('id', 'userId', 'queueId', 'isGroup', 'status')
      .limit(TICKET_EVENTS_LIMIT);
    for (const ticket of tickets) await notifyTicketChanged(ctx, companyId, ticket.id, visibleState(ticket));
  }
  return contact;
}

/**
 * Records a contact's LGPD consent (`InboxService.recordLgpdConsent`) unless it has one: false when the
 * contact doesn't exist in the company.
 */
export async function recordLgpdConsent(ctx: PluginContext, contactId: number, at: Date): Promise<boolean> {
  const companyId = currentTenant()?.companyId;
  if (companyId === undefined) throw new Error('inbox recordLgpdConsent: no tenant scope');
  const { knex } = ctx.db;
  const updated = await knex('contacts')
    .where({ companyId, id: contactId })
    .whereNull('lgpdAcceptedAt')
    .update({ lgpdAcceptedAt: at, updatedAt: new Date() });
  if (updated === 0) return (await knex('contacts').where({ companyId, id: contactId }).first('id')) !== undefined;
  await notifyContactChanged(ctx, companyId, contactId);
  return true;
}

/** Validated columns of a create or update; `current` is the contact being updated. */
function contactColumns(
  caller: Caller,
  input: ContactInput,
  current: Contact | null,
): { name: string; number: string | null; email: string | null; disableBot?: boolean } {
  const name = normalizeName(input.name);
  if (name === null) throw invalid('name', 'must have 2 to 250 characters');
  let number: string | null;
  const given = input.number ?? '';
  if (current && caller.mask && given === maskNumber(current.number)) {
    // a masked viewer sends back the masked number they were shown: the number is unchanged
    number = current.number;
  } else if (given.trim() === '' && (current ? current.number === null : false)) {
    // a contact without a number (webchat, Instagram) keeps none
    number = null;
  } else {
    number = normalizeNumber(given);
    if (number === null) throw invalid('number', 'must have 8 to 50 digits');
  }
  const email = normalizeEmail(input.email);
  if (email === undefined) throw invalid('email', 'must be a valid e-mail');
  return { name, number, email, ...(input.disableBot === undefined ? {} : { disableBot: input.disableBot }) };
}

async function refuseDuplicate(number: string | null, exceptId?: number): Promise<void> {
  if (number === null) return;
  const query = Contact.query().findOne({ number }).select('id');
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  if (await query) throw new AppError('ERR_DUPLICATED_CONTACT');
}

async function replaceExtraInfo(trx: Knex.Transaction, contactId: number, extraInfo: ContactInput['extraInfo']) {
  if (extraInfo === undefined) return;
  await ContactCustomField.query(trx).delete().where('contactId', contactId);
  const fields = extraInfo
    .map((field) => ({ contactId, name: field.name.trim(), value: field.value }))
    .filter((field) => field.name !== '');
  if (fields.length > 0) await ContactCustomField.query(trx).insert(fields);
}

/** Creates a contact: 409 ERR_DUPLICATED_CONTACT when the company has the number already. */
export async function createContact(ctx: PluginContext, caller: Caller, input: ContactInput): Promise<ContactJson> {
  const columns = contactColumns(caller, input, null);
  await refuseDuplicate(columns.number);
  let id: number;
  try {
    id = await ctx.db.transaction(async (trx) => {
      const contact = await Contact.query(trx).insert(columns);
      await replaceExtraInfo(trx, contact.id, input.extraInfo);
      return contact.id;
    });
  } catch (error) {
    // two requests with one number at once: the unique index refuses the second
    if (isUniqueNumberViolation(error)) throw new AppError('ERR_DUPLICATED_CONTACT');
    throw error;
  }
  await notifyContactChanged(ctx, caller.companyId, id);
  await ctx.events.publish('contact.created', { companyId: caller.companyId, contactId: id });
  return getContact(ctx, caller, id);
}

/** Updates a contact (its extra fields are replaced when given). */
export async function updateContact(ctx: PluginContext, caller: Caller, id: number, input: ContactInput): Promise<ContactJson> {
  const current = await requireContact(id);
  const columns = contactColumns(caller, input, current);
  await refuseDuplicate(columns.number, id);
  try {
    await ctx.db.transaction(async (trx) => {
      await Contact.query(trx)
        .patch({ ...columns, updatedAt: new Date() })
        .where('id', id);
      await replaceExtraInfo(trx, id, input.extraInfo);
    });
  } catch (error) {
    if (isUniqueNumberViolation(error)) throw new AppError('ERR_DUPLICATED_CONTACT');
    throw error;
  }
  const renamed = columns.name !== current.name || columns.number !== current.number;
  await notifyContactChanged(ctx, caller.companyId, id, { tickets: renamed });
  return getContact(ctx, caller, id);
}

/** Deletes a contact and, by cascade, its tickets and messages; their viewers get the deletions. */
export async function deleteContact(ctx: PluginContext, caller: Caller, id: number): Promise<void> {
  await requireContact(id);
  const tickets = await Ticket.query().where('contactId', id).select('id', 'userId', 'queueId', 'isGroup', 'status');
  await Contact.query().deleteById(id);
  const realtime = inboxState(ctx).realtime;
  for (const ticket of tickets.slice(0, TICKET_EVENTS_LIMIT)) {
    await realtime.ticketDeleted(caller.companyId, ticket.id, visibleState(ticket));
  }
  await realtime.contactDeleted(caller.companyId, id);
}

/** Flips a boolean column of a contact atomically and tells the company; returns the new value. */
async function toggle(
  ctx: PluginContext,
  caller: Caller,
  id: number,
  column: 'acceptAudioMessage' | 'disableBot',
): Promise<boolean> {
  const { knex } = ctx.db;
  const snake = column === 'acceptAudioMessage' ? 'accept_audio_message' : 'disable_bot';
  const [row] = (await knex('contacts')
    .where({ companyId: caller.companyId, id })
    .update({ [column]: knex.raw(`NOT ${snake}`), updatedAt: knex.fn.now() })
    .returning(column)) as Array<Record<string, boolean>>;
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
  await notifyContactChanged(ctx, caller.companyId, id, { tickets: column === 'disableBot' });
  return row[column] as boolean;
}

export const toggleAcceptAudio = (ctx: PluginContext, caller: Caller, id: number) =>
  toggle(ctx, caller, id, 'acceptAudioMessage');
export const toggleDisableBot = (ctx: PluginContext, caller: Caller, id: number) => toggle(ctx, caller, id, 'disableBot');

/** Blocks (`active: false`) or unblocks a contact. */
export async function blockContact(ctx: PluginContext, caller: Caller, id: number, active: boolean): Promise<ContactJson> {
  const updated = await Contact.query().patch({ active, updatedAt: new Date() }).where('id', id);
  if (updated === 0) throw new AppError('ERR_NO_CONTACT_FOUND');
  await notifyContactChanged(ctx, caller.companyId, id, { tickets: true });
  return getContact(ctx, caller, id);
}

// ---------------------------------------------------------------- import

export interface ImportRow {
  name?: string;
  number?: string | number;
  email?: string | null;
}

export interface ImportResult {
  created: number;
  skipped: number;
  errors: Array<{ row: number; error: string }>;
}

/**
 * Imports up to 5,000 contacts in one statement. Each row is validated on its own (`row` is its 1-based
 * position in `contacts`): invalid ones are reported, numbers the company has already — or that an
 * earlier row of the same import has — are skipped, the rest are created.
 */
export async function importContacts(ctx: PluginContext, caller: Caller, rows: ImportRow[]): Promise<ImportResult> {
  const errors: ImportResult['errors'] = [];
  const seen = new Set<string>();
  const names: string[] = [];
  const numbers: string[] = [];
  const emails: Array<string | null> = [];
  let duplicatesInFile = 0;
  for (const [index, row] of rows.entries()) {
    const position = index + 1;
    const name = normalizeName(row.name ?? '');
    const number = row.number === undefined ? null : normalizeNumber(row.number);
    const email = normalizeEmail(row.email);
    if (name === null || number === null || email === undefined) {
      const error = name === null ? 'ERR_INVALID_NAME' : number === null ? 'ERR_INVALID_NUMBER' : 'ERR_INVALID_EMAIL';
      errors.push({ row: position, error });
      continue;
    }
    if (seen.has(number)) {
      duplicatesInFile += 1;
      continue;
    }
    seen.add(number);
    names.push(name);
    numbers.push(number);
    emails.push(email);
  }
  if (numbers.length === 0) return { created: 0, skipped: duplicatesInFile, errors };
  // one statement: existing numbers (and a concurrent import's) are left alone by the unique index
  const result = (await ctx.db.knex.raw(
    `INSERT INTO contacts (company_id, name, number, email)
     SELECT ?, r.name, r.number, r.email FROM unnest(?::text[], ?::text[], ?::text[]) AS r(name, number, email)
     ON CONFLICT (company_id, number) WHERE number IS NOT NULL DO NOTHING
     RETURNING id`,
    [caller.companyId, names, numbers, emails] as unknown as Knex.RawBinding[],
  )) as { rows: Array<{ id: number }> };
  const created = result.rows.length;
  return { created, skipped: duplicatesInFile + (numbers.length - created), errors };
}
