import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import type { TicketNote as TicketNoteJson } from '../../shared/types';
import type { Caller } from '../directory/caller';
import { invalid } from '../directory/contact.service';
import { requireVisibleTicket } from '../directory/tag.service';
import { TicketNote } from '../models/ticket';

/** Ticket notes (docs/product/tickets-and-inbox.md#entities Ticket note, #validation: at least 2 characters; docs/inbox-api.md). */

interface NoteRow {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  userName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

async function loadNotes(ctx: PluginContext, companyId: number, where: Record<string, number>): Promise<TicketNoteJson[]> {
  const rows = (await ctx.db
    .knex('ticketNotes as n')
    .leftJoin('users as u', 'u.id', 'n.userId')
    .where('n.companyId', companyId)
    .where(Object.fromEntries(Object.entries(where).map(([key, value]) => [`n.${key}`, value])))
    .orderBy([
      { column: 'n.createdAt', order: 'desc' },
      { column: 'n.id', order: 'desc' },
    ])
    .select(
      'n.id',
      'n.note',
      'n.ticketId',
      'n.contactId',
      'n.userId',
      'u.name as userName',
      'n.createdAt',
      'n.updatedAt',
    )) as NoteRow[];
  return rows.map((row) => ({
    id: row.id,
    note: row.note,
    ticketId: row.ticketId,
    contactId: row.contactId,
    userId: row.userId,
    user: row.userName === null ? null : { name: row.userName },
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }));
}

/** Adds a note to a ticket the caller may see; `contactId` must be the ticket's contact. */
export async function createNote(
  ctx: PluginContext,
  caller: Caller,
  input: { note: string; ticketId: number; contactId: number },
): Promise<TicketNoteJson> {
  const note = input.note.trim();
  if (note.length < 2) throw invalid('note', 'must have at least 2 characters');
  const ticket = await requireVisibleTicket(caller, input.ticketId);
  if (ticket.contactId !== input.contactId) throw invalid('contactId', "must be the ticket's contact");
  const row = await TicketNote.query().insert({
    note,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: caller.user.id,
  });
  const [json] = await loadNotes(ctx, caller.companyId, { id: row.id });
  return json as TicketNoteJson;
}

/** Deletes a note: its author or an admin (403 ERR_NO_PERMISSION for others). */
export async function deleteNote(caller: Caller, id: number): Promise<void> {
  const note = await TicketNote.query().findById(id);
  if (!note) throw new AppError('ERR_NO_NOTE_FOUND');
  if (caller.user.profile !== 'admin' && note.userId !== caller.user.id) throw new AppError('ERR_NO_PERMISSION');
  await TicketNote.query().deleteById(id);
}

/** The notes of a ticket the caller may see, about its contact, newest first. */
export async function listNotes(
  ctx: PluginContext,
  caller: Caller,
  ticketId: number,
  contactId: number,
): Promise<TicketNoteJson[]> {
  await requireVisibleTicket(caller, ticketId);
  return loadNotes(ctx, caller.companyId, { ticketId, contactId });
}
