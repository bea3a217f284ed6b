import { AppError, type PluginContext, type Static } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { normaliseNumber } from '../../shared/campaigns';
import { ContactList, ContactListItem } from '../models/contact-list';
import { emitToManagers } from './live';
import type { ContactListBody, ContactListItemBody, ContactListItemSchema, ContactListSchema } from './schemas';
import { campaignSettings } from './settings.service';

export type ContactListJson = Static<typeof ContactListSchema>;
export type ContactListItemJson = Static<typeof ContactListItemSchema>;

/** Lists a page of `GET /contact-lists`, items a page of `GET /contact-list-items`. */
export const LISTS_PAGE_SIZE = 20;
export const ITEMS_PAGE_SIZE = 40;

const iso = (value: Date | string) => new Date(value).toISOString();

/** `%text%` for ILIKE with the text's own wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function listsWithCounts(knex: Knex, companyId: number, ids: number[]): Promise<ContactListJson[]> {
  if (ids.length === 0) return [];
  const rows = (await knex('contactLists as l')
    .where('l.companyId', companyId)
    .whereIn('l.id', ids)
    .select(
      'l.id',
      'l.name',
      'l.whatsappId',
      'l.createdAt',
      'l.updatedAt',
      knex.raw('(SELECT count(*)::int FROM contact_list_items i WHERE i.contact_list_id = l.id) AS "contactsCount"'),
    )) as Array<ContactList & { contactsCount: number }>;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row
      ? [
          {
            id: row.id,
            name: row.name,
            whatsappId: row.whatsappId,
            contactsCount: row.contactsCount,
            createdAt: iso(row.createdAt),
            updatedAt: iso(row.updatedAt),
          },
        ]
      : [];
  });
}

export async function loadList(ctx: PluginContext, companyId: number, id: number): Promise<ContactListJson> {
  const [list] = await listsWithCounts(ctx.db.knex, companyId, [id]);
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
}

/** Tells the managers a list changed (its name or its count). */
export async function announceList(ctx: PluginContext, companyId: number, id: number): Promise<void> {
  const [record] = await listsWithCounts(ctx.db.knex, companyId, [id]);
  if (record) await emitToManagers(ctx, companyId, 'ContactList', { action: 'update', record });
}

export async function pageLists(
  ctx: PluginContext,
  companyId: number,
  query: { searchParam?: string; pageNumber?: number },
): Promise<{ records: ContactListJson[]; count: number; hasMore: boolean }> {
  const page = query.pageNumber ?? 1;
  const base = ContactList.query();
  const search = query.searchParam?.trim();
  if (search) base.whereRaw('name ILIKE ?', [likePattern(search)]);
  const [rows, count] = await Promise.all([
    base
      .clone()
      .orderBy('name')
      .orderBy('id')
      .limit(LISTS_PAGE_SIZE)
      .offset((page - 1) * LISTS_PAGE_SIZE)
      .select('id'),
    base.clone().resultSize(),
  ]);
  const records = await listsWithCounts(
    ctx.db.knex,
    companyId,
    rows.map((row) => row.id),
  );
  return { records, count, hasMore: page * LISTS_PAGE_SIZE < count };
}

/** `GET /contact-lists/list`: every list of the company (the campaign dialog's choice). */
export async function allLists(ctx: PluginContext, companyId: number): Promise<ContactListJson[]> {
  const rows = await ContactList.query().orderBy('name').select('id');
  return listsWithCounts(
    ctx.db.knex,
    companyId,
    rows.map((row) => row.id),
  );
}

async function requireConnection(knex: Knex, companyId: number, connectionId: number | null | undefined): Promise<void> {
  if (connectionId == null) return;
  const row = await knex('whatsapps').where({ companyId, id: connectionId }).first('id');
  if (!row) throw new AppError('ERR_NO_WHATSAPP_FOUND');
}

export async function createList(
  ctx: PluginContext,
  companyId: number,
  body: Static<typeof ContactListBody>,
): Promise<ContactListJson> {
  await requireConnection(ctx.db.knex, companyId, body.whatsappId);
  const row = await ContactList.query().insert({ name: body.name.trim(), whatsappId: body.whatsappId ?? null });
  const record = await loadList(ctx, companyId, row.id);
  await emitToManagers(ctx, companyId, 'ContactList', { action: 'create', record });
  return record;
}

export async function updateList(
  ctx: PluginContext,
  companyId: number,
  id: number,
  body: Static<typeof ContactListBody>,
): Promise<ContactListJson> {
  await requireConnection(ctx.db.knex, companyId, body.whatsappId);
  const current = await ContactList.query().findById(id);
  if (!current) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  const connectionId = body.whatsappId === undefined ? current.whatsappId : body.whatsappId;
  await ContactList.query().findById(id).patch({ name: body.name.trim(), whatsappId: connectionId, updatedAt: new Date() });
  // another connection may answer otherwise: ask again
  if (connectionId !== current.whatsappId) {
    await ContactListItem.query().where({ contactListId: id }).patch({ isWhatsappValid: null, checkedAt: null });
    await requestNumberCheck(ctx, companyId, id);
  }
  const record = await loadList(ctx, companyId, id);
  await emitToManagers(ctx, companyId, 'ContactList', { action: 'update', record });
  return record;
}

/** Deletes a list with its items (campaigns that named it keep their recipients and lose the reference). */
export async function deleteList(ctx: PluginContext, companyId: number, id: number): Promise<void> {
  const deleted = await ContactList.query().deleteById(id);
  if (deleted === 0) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  await emitToManagers(ctx, companyId, 'ContactList', { action: 'delete', id });
}

function itemJson(companyId: number, row: ContactListItem): ContactListItemJson {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    isWhatsappValid: row.isWhatsappValid,
    companyId,
    contactListId: row.contactListId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export async function pageItems(
  companyId: number,
  query: { contactListId: number; searchParam?: string; pageNumber?: number },
): Promise<{ contacts: ContactListItemJson[]; count: number; hasMore: boolean }> {
  const list = await ContactList.query().findById(query.contactListId).select('id');
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  const page = query.pageNumber ?? 1;
  const base = ContactListItem.query().where({ contactListId: query.contactListId });
  const search = query.searchParam?.trim();
  if (search) {
    const digits = search.replace(/\D/g, '');
    base.where((where) => {
      where.whereRaw('name ILIKE ?', [likePattern(search)]).orWhereRaw('email ILIKE ?', [likePattern(search)]);
      if (digits.length >= 3) where.orWhereRaw('number LIKE ?', [likePattern(digits)]);
    });
  }
  const [rows, count] = await Promise.all([
    base
      .clone()
      .orderBy('name')
      .orderBy('id')
      .limit(ITEMS_PAGE_SIZE)
      .offset((page - 1) * ITEMS_PAGE_SIZE),
    base.clone().resultSize(),
  ]);
  return { contacts: rows.map((row) => itemJson(companyId, row)), count, hasMore: page * ITEMS_PAGE_SIZE < count };
}

export async function loadItem(companyId: number, id: number): Promise<ContactListItemJson> {
  const row = await ContactListItem.query().findById(id);
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return itemJson(companyId, row);
}

/** An item's fields from a body: the number normalised (400 ERR_INVALID_NUMBER when it can't be). */
async function itemFields(ctx: PluginContext, companyId: number, body: Static<typeof ContactListItemBody>) {
  const list = await ContactList.query().findById(body.contactListId).select('id');
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  const settings = await campaignSettings(ctx, companyId);
  const number = normaliseNumber(body.number, settings.countryCode);
  if (number === null) throw new AppError('ERR_INVALID_NUMBER');
  return { contactListId: body.contactListId, name: body.name.trim(), number, email: body.email?.trim() || null };
}

function isUniqueViolation(error: unknown): boolean {
  const err = error as { code?: unknown; nativeError?: { code?: unknown } };
  return err.code === '23505' || err.nativeError?.code === '23505';
}

async function announceItem(ctx: PluginContext, companyId: number, action: 'create' | 'update', row: ContactListItem) {
  await emitToManagers(ctx, companyId, 'ContactListItem', { action, record: itemJson(companyId, row) });
  await announceList(ctx, companyId, row.contactListId);
}

export async function createItem(
  ctx: PluginContext,
  companyId: number,
  body: Static<typeof ContactListItemBody>,
): Promise<ContactListItemJson> {
  const fields = await itemFields(ctx, companyId, body);
  let row: ContactListItem;
  try {
    row = (await ContactListItem.query().insert(fields).returning('*')) as unknown as ContactListItem;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ERR_CONTACT_LIST_ITEM_EXISTS');
    throw error;
  }
  await announceItem(ctx, companyId, 'create', row);
  await requestNumberCheck(ctx, companyId, row.contactListId);
  return itemJson(companyId, row);
}

export async function updateItem(
  ctx: PluginContext,
  companyId: number,
  id: number,
  body: Static<typeof ContactListItemBody>,
): Promise<ContactListItemJson> {
  const current = await ContactListItem.query().findById(id);
  if (!current) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  const fields = await itemFields(ctx, companyId, body);
  const numberChanged = fields.number !== current.number || fields.contactListId !== current.contactListId;
  let row: ContactListItem;
  try {
    row = await ContactListItem.query().patchAndFetchById(id, {
      ...fields,
      ...(numberChanged ? { isWhatsappValid: null, checkedAt: null } : {}),
      updatedAt: new Date(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ERR_CONTACT_LIST_ITEM_EXISTS');
    throw error;
  }
  await announceItem(ctx, companyId, 'update', row);
  if (current.contactListId !== row.contactListId) await announceList(ctx, companyId, current.contactListId);
  if (numberChanged) await requestNumberCheck(ctx, companyId, row.contactListId);
  return itemJson(companyId, row);
}

export async function deleteItem(ctx: PluginContext, companyId: number, id: number): Promise<void> {
  const current = await ContactListItem.query().findById(id);
  if (!current) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  await ContactListItem.query().deleteById(id);
  await emitToManagers(ctx, companyId, 'ContactListItem', { action: 'delete', id, contactListId: current.contactListId });
  await announceList(ctx, companyId, current.contactListId);
}

/** Numbers asked of the channel per check (one question to WhatsApp for each). */
const CHECK_BATCH = 50;
/** Rounds of one check job (the rest goes on in a next job). */
const CHECK_ROUNDS = 20;

/**
 * Queues the check of a list's unchecked numbers (one pending check per list; `followUp`: the next part of
 * a long list, queued by the running check itself, whose own id is still taken).
 */
export async function requestNumberCheck(
  ctx: PluginContext,
  companyId: number,
  contactListId: number,
  followUp = false,
): Promise<void> {
  try {
    const jobId = followUp ? `check-${contactListId}-${Date.now()}` : `check-${contactListId}`;
    await ctx.jobs.enqueue('check-numbers', { contactListId }, { companyId, jobId });
  } catch (error) {
    // the check is a nicety: a list without it shows "unknown"
    ctx.log.warn({ err: error, contactListId }, 'could not queue a number check');
  }
}

/**
 * The `check-numbers` job: asks the list's connection (else the company's default one) whether its unchecked
 * numbers are on the channel, 50 at a time, and records each answer; "can't tell" stays unknown (null) and
 * is not asked again until the number or the connection changes. The list's page follows live (a reload).
 */
export async function checkNumbers(ctx: PluginContext, companyId: number, contactListId: number): Promise<void> {
  const { knex } = ctx.db;
  const list = await ContactList.query().findById(contactListId);
  if (!list) return;
  const connection = (await knex('whatsapps')
    .where({ companyId })
    .modify((query) => {
      if (list.whatsappId !== null) query.where({ id: list.whatsappId });
      else query.orderBy('isDefault', 'desc').orderBy('id');
    })
    .first('id', 'channel')) as { id: number; channel: string } | undefined;
  let changed = false;
  for (let round = 0; round < CHECK_ROUNDS; round++) {
    const items = (await knex('contactListItems')
      .where({ companyId, contactListId })
      .whereNull('checkedAt')
      .orderBy('id')
      .limit(CHECK_BATCH)
      .select('id', 'number')) as Array<{ id: number; number: string }>;
    if (items.length === 0) break;
    const answers = connection
      ? await ctx.services
          .use('inbox')
          .checkNumbers({ whatsappId: connection.id, channel: connection.channel, numbers: items.map((item) => item.number) })
      : items.map(() => null);
    await knex.raw(
      `UPDATE contact_list_items i SET is_whatsapp_valid = v.valid, checked_at = now()
       FROM unnest(?::int[], ?::boolean[]) AS v(id, valid) WHERE i.company_id = ? AND i.id = v.id`,
      [items.map((item) => item.id), answers as unknown as boolean[], companyId],
    );
    changed = changed || answers.some((answer) => answer !== null);
    if (round === CHECK_ROUNDS - 1) await requestNumberCheck(ctx, companyId, contactListId, true);
  }
  if (changed) await emitToManagers(ctx, companyId, 'ContactListItem', { action: 'reload', contactListId });
}
