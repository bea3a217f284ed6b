import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { notifyContactChanged } from '../directory/contact.service';
import { inboxState } from '../state';
import { loadTicket } from '../tickets/serializer';
import { visibleState } from '../tickets/ticket-notify';
import type { VisibleTicketFields } from '../tickets/visibility';

/** A ticket of a contact being merged, as the merge reads it. */
interface MergedTicket {
  id: number;
  contactId: number;
  whatsappId: number | null;
  status: VisibleTicketFields['status'];
  userId: number | null;
  queueId: number | null;
  isGroup: boolean;
  unreadMessages: number;
}

/** What a merge changed, for its events. */
export interface MergeOutcome {
  survivorId: number;
  removedContactIds: number[];
  /** Tickets of the removed contacts folded into the survivor's active ticket on the same connection. */
  foldedTickets: Array<{ from: MergedTicket; into: number }>;
  /** The survivor's active tickets after the merge (its own, the ones that moved, the ones folded into). */
  activeTickets: MergedTicket[];
}

/** A contact's name that says nothing (its number, an identifier): a real name of the other wins. */
function placeholderName(name: string, number: string | null): boolean {
  const trimmed = name.trim();
  return trimmed === '' || (number !== null && trimmed === number) || /^[\d+@.:\-a-z]*$/i.test(trimmed.replace(/\s/g, ''));
}

/**
 * One person turned out to be several contacts — a channel that learnt that two identifiers are the same
 * person (WhatsApp's LID and phone number) after each had made its own contact. The oldest contact stays
 * and takes everything of the others, in one transaction: identities, extra fields, tags, notes,
 * messages and tickets (an active ticket of another on a connection where the survivor has one too is
 * folded into the survivor's: its messages, notes, logs, tags and unread count move, the emptied ticket
 * goes), and its number, e-mail, picture or a real name where the survivor has none. Then the others go.
 * Runs in the caller's transaction; `announceMerge` tells the users afterwards.
 */
export async function mergeContacts(
  trx: Knex.Transaction,
  companyId: number,
  contactIds: number[],
): Promise<MergeOutcome | null> {
  const ids = [...new Set(contactIds)].sort((a, b) => a - b);
  if (ids.length < 2) return null;
  const contacts = (await trx('contacts')
    .where({ companyId })
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select('id', 'name', 'number', 'email', 'urlPicture', 'isGroup')) as Array<{
    id: number;
    name: string;
    number: string | null;
    email: string | null;
    urlPicture: string | null;
    isGroup: boolean;
  }>;
  if (contacts.length < 2) return null;
  const [survivor, ...others] = contacts as [(typeof contacts)[number], ...typeof contacts];
  const otherIds = others.map((contact) => contact.id);

  const tickets = (await trx('tickets')
    .where({ companyId })
    .whereIn('contactId', [survivor.id, ...otherIds])
    .whereNot('status', 'closed')
    .forUpdate()
    .select('id', 'contactId', 'whatsappId', 'status', 'userId', 'queueId', 'isGroup', 'unreadMessages')) as MergedTicket[];
  const survivorActive = new Map<number, MergedTicket>();
  for (const ticket of tickets) if (ticket.contactId === survivor.id) survivorActive.set(ticket.whatsappId ?? 0, ticket);
  const foldedTickets: MergeOutcome['foldedTickets'] = [];
  for (const ticket of tickets) {
    if (ticket.contactId === survivor.id) continue;
    const into = survivorActive.get(ticket.whatsappId ?? 0);
    if (!into) {
      // the survivor has none on that connection: this one becomes it
      survivorActive.set(ticket.whatsappId ?? 0, ticket);
      continue;
    }
    for (const table of ['messages', 'ticketNotes', 'ticketLogs'] as const) {
      await trx(table).where({ companyId, ticketId: ticket.id }).update({ ticketId: into.id });
    }
    await trx.raw(
      `INSERT INTO ticket_tags (company_id, ticket_id, tag_id) SELECT company_id, ?, tag_id FROM ticket_tags WHERE ticket_id = ?
       ON CONFLICT DO NOTHING`,
      [into.id, ticket.id],
    );
    await trx('tickets')
      .where({ companyId, id: into.id })
      .update({ unreadMessages: trx.raw('unread_messages + ?', [ticket.unreadMessages]), updatedAt: trx.fn.now() });
    await trx('tickets').where({ companyId, id: ticket.id }).delete();
    foldedTickets.push({ from: ticket, into: into.id });
  }

  await trx('tickets').where({ companyId }).whereIn('contactId', otherIds).update({ contactId: survivor.id });
  for (const table of ['messages', 'ticketNotes', 'contactIdentities', 'contactCustomFields'] as const) {
    await trx(table).where({ companyId }).whereIn('contactId', otherIds).update({ contactId: survivor.id });
  }
  await trx.raw(
    `INSERT INTO contact_tags (company_id, contact_id, tag_id)
     SELECT company_id, ?, tag_id FROM contact_tags WHERE company_id = ? AND contact_id = ANY(?::int[])
     ON CONFLICT DO NOTHING`,
    [survivor.id, companyId, otherIds],
  );

  // what the survivor lacks, from the others (the number only once they are gone: it is unique)
  const patch: Record<string, unknown> = {};
  const number = survivor.number ?? others.find((contact) => contact.number)?.number ?? null;
  if (!survivor.number && number) patch.number = number;
  if (!survivor.email) {
    const email = others.find((contact) => contact.email)?.email;
    if (email) patch.email = email;
  }
  if (!survivor.urlPicture) {
    const picture = others.find((contact) => contact.urlPicture)?.urlPicture;
    if (picture) patch.urlPicture = picture;
  }
  if (placeholderName(survivor.name, survivor.number)) {
    const named = others.find((contact) => !placeholderName(contact.name, contact.number));
    if (named) patch.name = named.name;
  }
  await trx('contacts').where({ companyId }).whereIn('id', otherIds).delete();
  if (Object.keys(patch).length > 0)
    await trx('contacts')
      .where({ companyId, id: survivor.id })
      .update({ ...patch, updatedAt: trx.fn.now() });
  return {
    survivorId: survivor.id,
    removedContactIds: otherIds,
    foldedTickets,
    activeTickets: [...survivorActive.values()],
  };
}

/** After a merge's commit: the removed contacts and folded tickets leave the screens, the survivor updates. */
export async function announceMerge(ctx: PluginContext, companyId: number, outcome: MergeOutcome): Promise<void> {
  const { realtime } = inboxState(ctx);
  for (const contactId of outcome.removedContactIds) await realtime.contactDeleted(companyId, contactId);
  for (const { from } of outcome.foldedTickets) await realtime.ticketDeleted(companyId, from.id, visibleState(from));
  // the lists show the survivor's name on its open tickets (realtime only: no ticket changed state)
  for (const active of outcome.activeTickets) {
    const ticket = await loadTicket(ctx.db.knex, companyId, active.id);
    if (ticket) await realtime.ticketChanged(companyId, ticket, visibleState(active));
  }
  await notifyContactChanged(ctx, companyId, outcome.survivorId);
}
