import { randomInt } from 'node:crypto';
import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { LIST_PAGE_SIZE, type TagEvent, type Tag as TagJson, type TagRef } from '../../shared/types';
import { ContactTag, Tag, TicketTag } from '../models/tag';
import { Ticket } from '../models/ticket';
import { notifyTicketChanged, visibleState } from '../tickets/ticket-notify';
import { canSeeTicket } from '../tickets/visibility';
import type { Caller } from './caller';
import { escapeLike, invalid, notifyContactChanged, requireContact } from './contact.service';

/** Tags, contact tags and ticket (kanban lane) tags (docs/product/administration.md#entities Tag, #validation, #calls-and-realtime-events; docs/product/tickets-and-inbox.md#validation, #calls-and-realtime-events). */

export const DEFAULT_TAG_COLOR = '#7C7C7C';
/** Most tickets whose events one tag change sends. */
const TICKET_EVENTS_LIMIT = 200;

/** `company{id}-tag` — docs/product writes this channel without the hyphen. */
export const tagChannel = (companyId: number) => `company${companyId}-tag`;

/** A random `#RRGGBB` for tags created on the fly. */
export function randomColor(): string {
  return `#${randomInt(0, 0x1000000).toString(16).padStart(6, '0').toUpperCase()}`;
}

/** Tags with their counts (`ticketTags`: tickets carrying the tag; `contacts`: contacts carrying it). */
function tagsWithCounts(knex: Knex, companyId: number) {
  return knex('tags as t')
    .where('t.companyId', companyId)
    .select(
      't.id',
      't.name',
      't.color',
      't.kanban',
      't.userId',
      't.timeLane',
      't.nextLaneId',
      't.greetingMessageLane',
      't.rollbackLaneId',
      knex.raw('(SELECT count(*)::int FROM ticket_tags tt WHERE tt.tag_id = t.id) as ticket_tags'),
      knex.raw('(SELECT count(*)::int FROM contact_tags ct WHERE ct.tag_id = t.id) as contacts'),
    );
}

export interface TagListQuery {
  searchParam?: string;
  pageNumber?: number;
  kanban?: 0 | 1;
}

/** A page of tags (40) by name, matching the search, optionally only plain (0) or lane (1) tags. */
export async function listTags(ctx: PluginContext, caller: Caller, query: TagListQuery) {
  const page = query.pageNumber ?? 1;
  const rows = tagsWithCounts(ctx.db.knex, caller.companyId)
    .orderBy([{ column: 't.name' }, { column: 't.id' }])
    .limit(LIST_PAGE_SIZE + 1)
    .offset((page - 1) * LIST_PAGE_SIZE);
  if (query.kanban !== undefined) rows.where('t.kanban', query.kanban);
  const search = (query.searchParam ?? '').trim();
  if (search) rows.whereILike('t.name', `%${escapeLike(search)}%`);
  const tags = (await rows) as TagJson[];
  return { tags: tags.slice(0, LIST_PAGE_SIZE), hasMore: tags.length > LIST_PAGE_SIZE };
}

/** Every tag of the company by name (pickers), optionally only plain or lane tags. */
export async function allTags(ctx: PluginContext, caller: Caller, kanban?: 0 | 1): Promise<TagJson[]> {
  const rows = tagsWithCounts(ctx.db.knex, caller.companyId).orderBy([{ column: 't.name' }, { column: 't.id' }]);
  if (kanban !== undefined) rows.where('t.kanban', kanban);
  return (await rows) as TagJson[];
}

/** One tag with its counts, or 404 ERR_NO_TAG_FOUND. */
export async function getTag(ctx: PluginContext, companyId: number, id: number): Promise<TagJson> {
  const tag = (await tagsWithCounts(ctx.db.knex, companyId).where('t.id', id).first()) as TagJson | undefined;
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND');
  return tag;
}

export interface TagInput {
  name: string;
  color?: string;
  kanban?: 0 | 1;
  userId?: number | null;
  timeLane?: number | null;
  nextLaneId?: number | null;
  greetingMessageLane?: string | null;
  rollbackLaneId?: number | null;
}

/** The validated columns of a tag: name of 3+ characters, lanes that are the company's kanban tags. */
async function tagColumns(input: TagInput, selfId?: number) {
  const name = input.name.trim();
  if (name.length < 3) throw invalid('name', 'must have at least 3 characters');
  for (const field of ['nextLaneId', 'rollbackLaneId'] as const) {
    const laneId = input[field];
    if (laneId === undefined || laneId === null) continue;
    // a lane may name itself only when it is (or becomes) a kanban tag
    const lane =
      laneId === selfId
        ? { kanban: input.kanban ?? (await Tag.query().findById(laneId))?.kanban }
        : await Tag.query().findById(laneId);
    if (lane?.kanban !== 1) throw invalid(field, 'must be a kanban tag of the company');
  }
  const columns: Partial<Tag> = { name };
  if (input.color !== undefined) columns.color = input.color.toUpperCase();
  if (input.kanban !== undefined) columns.kanban = input.kanban;
  for (const field of ['userId', 'timeLane', 'nextLaneId', 'greetingMessageLane', 'rollbackLaneId'] as const) {
    if (input[field] !== undefined) (columns as Record<string, unknown>)[field] = input[field];
  }
  return columns;
}

/** Refuses a user id that isn't one of the company's users. */
async function requireCompanyUser(ctx: PluginContext, companyId: number, userId: number | null | undefined) {
  if (userId === undefined || userId === null) return;
  const user = await ctx.db.knex('users').where({ id: userId, companyId }).first('id');
  if (!user) throw invalid('userId', 'must be a user of the company');
}

/** Tells the company's users (`company-{id}-tag`) and the features on the bus (`tag.changed`). */
async function emitTag(ctx: PluginContext, companyId: number, payload: TagEvent): Promise<void> {
  ctx.realtime.emit(companyId, tagChannel(companyId), payload);
  await ctx.events.publish('tag.changed', { companyId, tagId: 'tag' in payload ? payload.tag.id : payload.tagId });
}

/**
 * Kanban lanes are kanban tags: creating, changing or deleting one, or turning a tag into a lane or back,
 * needs the permission behind the board's '+ Adicionar colunas' button (dashboard:view, docs/product/roles-and-permissions.md#roles-in-administration,
 * docs/product/administration.md#tags-and-kanban). Plain tags stay open to every user.
 */
function requireLaneManager(ctx: PluginContext, caller: Caller, ...kanban: Array<number | undefined>): void {
  if (kanban.some((value) => value === 1) && !ctx.access.can(caller.user, 'dashboard:view')) {
    throw new AppError('ERR_NO_PERMISSION');
  }
}

/** Creates a tag (colour #7C7C7C and kanban 0 unless given). */
export async function createTag(ctx: PluginContext, caller: Caller, input: TagInput): Promise<TagJson> {
  requireLaneManager(ctx, caller, input.kanban);
  await requireCompanyUser(ctx, caller.companyId, input.userId);
  const columns = await tagColumns({ ...input, userId: undefined });
  const tag = await Tag.query().insert({
    color: DEFAULT_TAG_COLOR,
    kanban: 0,
    ...columns,
    ...(input.userId === undefined ? {} : { userId: input.userId }),
  });
  const json = await getTag(ctx, caller.companyId, tag.id);
  await emitTag(ctx, caller.companyId, { action: 'create', tag: json });
  return json;
}

/** Updates a tag; tickets carrying it are told when its name or colour changed. */
export async function updateTag(ctx: PluginContext, caller: Caller, id: number, input: TagInput): Promise<TagJson> {
  const current = await Tag.query().findById(id);
  if (!current) throw new AppError('ERR_NO_TAG_FOUND');
  requireLaneManager(ctx, caller, current.kanban, input.kanban);
  await requireCompanyUser(ctx, caller.companyId, input.userId);
  const columns = await tagColumns({ ...input, userId: undefined }, id);
  await Tag.query()
    .patch({ ...columns, ...(input.userId === undefined ? {} : { userId: input.userId }), updatedAt: new Date() })
    .where('id', id);
  const json = await getTag(ctx, caller.companyId, id);
  await emitTag(ctx, caller.companyId, { action: 'update', tag: json });
  if (json.name !== current.name || json.color !== current.color) {
    await notifyTicketsCarrying(ctx, caller.companyId, await ticketsCarrying(id));
  }
  return json;
}

/** Tickets that are not closed carrying the tag (as a ticket tag or through their contact). */
async function ticketsCarrying(tagId: number): Promise<Ticket[]> {
  return Ticket.query()
    .whereNot('status', 'closed')
    .where((carrying) => {
      carrying
        .whereIn('id', TicketTag.query().select('ticketId').where('tagId', tagId))
        .orWhereIn('contactId', ContactTag.query().select('contactId').where('tagId', tagId));
    })
    .select('id', 'userId', 'queueId', 'isGroup', 'status')
    .limit(TICKET_EVENTS_LIMIT);
}

async function notifyTicketsCarrying(ctx: PluginContext, companyId: number, tickets: Ticket[]): Promise<void> {
  for (const ticket of tickets) await notifyTicketChanged(ctx, companyId, ticket.id, visibleState(ticket));
}

/** Deletes a tag (its contact and ticket links go with it). */
export async function deleteTag(ctx: PluginContext, caller: Caller, id: number): Promise<void> {
  const tag = await Tag.query().findById(id);
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND');
  requireLaneManager(ctx, caller, tag.kanban);
  const tickets = await ticketsCarrying(id);
  await Tag.query().deleteById(id);
  await emitTag(ctx, caller.companyId, { action: 'delete', tagId: id });
  await notifyTicketsCarrying(ctx, caller.companyId, tickets);
}

/**
 * Sets a contact's tags to exactly `tags`: those with an id must be the company's; names without an id
 * name an existing tag (case-insensitively) or create one (3+ characters, random colour, kanban 0).
 * The contact's update and its open tickets' updates are sent.
 */
export async function syncContactTags(
  ctx: PluginContext,
  caller: Caller,
  contactId: number,
  tags: Array<{ id?: number; name: string }>,
): Promise<TagRef[]> {
  await requireContact(contactId);
  const ids = new Set<number>();
  const created: number[] = [];
  const byId = tags.filter((tag) => tag.id !== undefined).map((tag) => tag.id as number);
  if (byId.length > 0) {
    const found = await Tag.query().whereIn('id', byId).select('id');
    if (found.length !== new Set(byId).size) throw new AppError('ERR_NO_TAG_FOUND');
    for (const tag of found) ids.add(tag.id);
  }
  for (const tag of tags.filter((candidate) => candidate.id === undefined)) {
    const name = tag.name.trim();
    if (name.length < 3) throw invalid('tags', 'a new tag needs at least 3 characters');
    const existing = await Tag.query().whereRaw('lower(name) = lower(?)', [name]).orderBy('id').first();
    if (existing) {
      ids.add(existing.id);
      continue;
    }
    const fresh = await Tag.query().insert({ name, color: randomColor(), kanban: 0 });
    created.push(fresh.id);
    ids.add(fresh.id);
  }
  await ctx.db.transaction(async (trx) => {
    await ContactTag.query(trx).delete().where('contactId', contactId);
    if (ids.size > 0) await ContactTag.query(trx).insert([...ids].map((tagId) => ({ contactId, tagId })));
  });
  for (const id of created)
    await emitTag(ctx, caller.companyId, { action: 'create', tag: await getTag(ctx, caller.companyId, id) });
  const contact = await notifyContactChanged(ctx, caller.companyId, contactId, { tickets: true });
  return contact?.tags ?? [];
}

/** Removes a tag from a contact (204 even when it wasn't there); 404 for another company's ids. */
export async function removeContactTag(ctx: PluginContext, caller: Caller, tagId: number, contactId: number): Promise<void> {
  await requireContact(contactId);
  if (!(await Tag.query().findById(tagId))) throw new AppError('ERR_NO_TAG_FOUND');
  const removed = await ContactTag.query().delete().where({ contactId, tagId });
  if (removed > 0) await notifyContactChanged(ctx, caller.companyId, contactId, { tickets: true });
}

/** The ticket, when the caller may see it; else 404 ERR_NO_TICKET_FOUND (as if it did not exist). */
export async function requireVisibleTicket(caller: Caller, ticketId: number): Promise<Ticket> {
  const ticket = await Ticket.query().findById(ticketId);
  if (!ticket || !canSeeTicket(caller.viewer, ticket)) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/** Puts a tag on a visible ticket (a kanban lane, usually). */
export async function addTicketTag(ctx: PluginContext, caller: Caller, ticketId: number, tagId: number): Promise<void> {
  const ticket = await requireVisibleTicket(caller, ticketId);
  if (!(await Tag.query().findById(tagId))) throw new AppError('ERR_NO_TAG_FOUND');
  const existing = await TicketTag.query().findOne({ ticketId, tagId });
  if (existing) return;
  await TicketTag.query().insert({ ticketId, tagId }).onConflict(['ticketId', 'tagId']).ignore();
  await notifyTicketChanged(ctx, caller.companyId, ticketId, visibleState(ticket));
  await ctx.events.publish('ticket.tagsChanged', {
    companyId: caller.companyId,
    ticketId,
    addedTagIds: [tagId],
    removedTagIds: [],
    userId: caller.user.id,
  });
}

/** Takes a visible ticket out of its kanban lanes (its kanban tags; plain tags stay). */
export async function removeTicketKanbanTags(ctx: PluginContext, caller: Caller, ticketId: number): Promise<void> {
  const ticket = await requireVisibleTicket(caller, ticketId);
  const removed = (await TicketTag.query()
    .delete()
    .where('ticketId', ticketId)
    .whereIn('tagId', Tag.query().select('id').where('kanban', 1))
    .returning('tagId')) as unknown as Array<{ tagId: number }>;
  if (removed.length === 0) return;
  await notifyTicketChanged(ctx, caller.companyId, ticketId, visibleState(ticket));
  await ctx.events.publish('ticket.tagsChanged', {
    companyId: caller.companyId,
    ticketId,
    addedTagIds: [],
    removedTagIds: removed.map((row) => row.tagId),
    userId: caller.user.id,
  });
}
