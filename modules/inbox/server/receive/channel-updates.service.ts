import { type InboxService, type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { MessageReaction } from '../../shared/types';
import { emitMessageChanged } from '../messages/message-actions.service';
import type { VisibleTicketFields } from '../tickets/visibility';
import { announceMerge, mergeContacts } from './contact-merge.service';
import { cleanIdentifiers } from './receive.service';

/**
 * What a channel driver reports about messages it already handed in or sent (the channel contract's
 * `updateAck`, `reportDeliveryFailure`, `applyEdit`, `applyDelete`, `applyReaction`) and about who a
 * contact is (`linkIdentities`). Each runs in the driver's company scope.
 */

/** A message of a connection found by its channel id, with its ticket's visibility fields. */
interface ChannelMessageRef {
  id: number;
  ticketId: number;
  ticket: VisibleTicketFields & { id: number };
}

function channelMessageQuery(knex: Knex, companyId: number, connectionId: number, channelMessageId: string) {
  return knex('messages as m')
    .join('tickets as t', 't.id', 'm.ticketId')
    .where({ 'm.companyId': companyId, 'm.whatsappId': connectionId, 'm.channelMessageId': channelMessageId });
}

async function findChannelMessage(
  knex: Knex | Knex.Transaction,
  companyId: number,
  connectionId: number,
  channelMessageId: string,
  forUpdate = false,
): Promise<(ChannelMessageRef & { reactions: MessageReaction[]; channel: string }) | null> {
  const query = channelMessageQuery(knex as Knex, companyId, connectionId, channelMessageId).first(
    'm.id',
    'm.ticketId',
    'm.reactions',
    't.userId',
    't.queueId',
    't.isGroup',
    't.status',
    't.channel',
  );
  if (forUpdate) query.forUpdate('m');
  const row = await query;
  if (!row) return null;
  return {
    id: Number(row.id),
    ticketId: row.ticketId,
    reactions: row.reactions ?? [],
    channel: row.channel,
    ticket: { id: row.ticketId, userId: row.userId, queueId: row.queueId, isGroup: row.isGroup, status: row.status },
  };
}

/** Runs a driver's call in its company's scope. */
function inScope<T>(companyId: number, fn: () => Promise<T>): Promise<T> {
  if (!Number.isInteger(companyId) || companyId < 1) return Promise.reject(new Error('inbox: companyId is required'));
  return runInTenant({ companyId }, fn);
}

/** What a driver passes to one of the contract's calls. */
type Input<K extends keyof InboxService> = InboxService[K] extends (input: infer I) => unknown ? I : never;

/** A message's delivery state as the channel reports it (`InboxService.updateAck`): forward only. */
export function updateAck(
  ctx: PluginContext,
  { companyId, whatsappId, channelMessageId, ack }: Input<'updateAck'>,
): Promise<void> {
  const { knex } = ctx.db;
  return inScope(companyId, async () => {
    if (!Number.isInteger(ack) || ack < 0 || ack > 5) return;
    // acks only move forward (a late "delivered" never undoes "read")
    const ids = (await knex('messages')
      .where({ companyId, whatsappId, channelMessageId })
      .where('ack', '<', ack)
      .update({ ack, updatedAt: new Date() })
      .returning(['id', 'ticketId'])) as Array<{ id: string | number; ticketId: number }>;
    for (const row of ids) await emitMessageChanged(ctx, companyId, Number(row.id));
  });
}

/**
 * Identifiers the channel says are one person (`InboxService.linkIdentities`): the unknown ones join the
 * contact of the known ones, or the contacts they made are merged into one.
 */
export function linkIdentities(ctx: PluginContext, { companyId, channel, identifiers }: Input<'linkIdentities'>): Promise<void> {
  const { knex } = ctx.db;
  return inScope(companyId, async () => {
    const ids = cleanIdentifiers(identifiers);
    if (ids.length < 2) return;
    const rows = (await knex('contactIdentities')
      .where({ companyId, channel })
      .whereIn('identifier', ids)
      .select('identifier', 'contactId')) as Array<{ identifier: string; contactId: number }>;
    const contacts = [...new Set(rows.map((row) => row.contactId))];
    if (contacts.length === 0) return;
    if (contacts.length > 1) {
      const outcome = await ctx.db.transaction((trx) => mergeContacts(trx, companyId, contacts));
      if (outcome) await announceMerge(ctx, companyId, outcome);
      return;
    }
    const known = new Set(rows.map((row) => row.identifier));
    const missing = ids.filter((id) => !known.has(id));
    await knex('contactIdentities')
      .insert(missing.map((identifier) => ({ companyId, contactId: contacts[0], channel, identifier })))
      .onConflict(['companyId', 'channel', 'identifier'])
      .ignore();
  });
}

/** A sent message the channel could not deliver (`InboxService.reportDeliveryFailure`), unless delivered already. */
export function reportDeliveryFailure(
  ctx: PluginContext,
  { companyId, whatsappId, channelMessageId, error }: Input<'reportDeliveryFailure'>,
): Promise<void> {
  const { knex } = ctx.db;
  return inScope(companyId, async () => {
    const code = /^ERR_[A-Z0-9_]+$/.test(error) ? error.slice(0, 60) : 'ERR_SENDING_WAPP_MSG';
    // only a message not yet delivered can have failed (a late report never undoes a delivery)
    const rows = (await knex('messages')
      .where({ companyId, whatsappId, channelMessageId, fromMe: true })
      .where('ack', '<', 2)
      .update({ sendStatus: 'failed', sendError: code, ack: 0, updatedAt: new Date() })
      .returning(['id'])) as Array<{ id: string | number }>;
    for (const row of rows) await emitMessageChanged(ctx, companyId, Number(row.id));
  });
}

/** A contact's edit of a message (`InboxService.applyEdit`). */
export function applyEdit(
  ctx: PluginContext,
  { companyId, whatsappId, channelMessageId, body }: Input<'applyEdit'>,
): Promise<void> {
  const { knex } = ctx.db;
  return inScope(companyId, async () => {
    const found = await findChannelMessage(knex, companyId, whatsappId, channelMessageId);
    if (!found) return;
    await knex('messages').where({ companyId, id: found.id }).update({ body, isEdited: true, updatedAt: new Date() });
    await emitMessageChanged(ctx, companyId, found.id, found.ticket);
  });
}

/** A contact's deletion of a message (`InboxService.applyDelete`): kept, marked deleted. */
export function applyDelete(
  ctx: PluginContext,
  { companyId, whatsappId, channelMessageId }: Input<'applyDelete'>,
): Promise<void> {
  const { knex } = ctx.db;
  return inScope(companyId, async () => {
    const found = await findChannelMessage(knex, companyId, whatsappId, channelMessageId);
    if (!found) return;
    await knex('messages').where({ companyId, id: found.id }).update({ isDeleted: true, updatedAt: new Date() });
    await emitMessageChanged(ctx, companyId, found.id, found.ticket, { deleted: true });
  });
}

/** A reaction to a message, or its removal (`InboxService.applyReaction`): one per sender. */
export function applyReaction(
  ctx: PluginContext,
  { companyId, whatsappId, channelMessageId, type, fromMe, contactIdentifier }: Input<'applyReaction'>,
): Promise<void> {
  return inScope(companyId, async () => {
    const found = await ctx.db.transaction(async (trx) => {
      const message = await findChannelMessage(trx, companyId, whatsappId, channelMessageId, true);
      if (!message) return null;
      let contactId: number | null = null;
      if (!fromMe && contactIdentifier) {
        const identity = await trx('contactIdentities')
          .where({ companyId, channel: message.channel, identifier: contactIdentifier })
          .first('contactId');
        contactId = identity?.contactId ?? null;
      }
      // one reaction per sender: the contact's (or the phone's, for fromMe) replaces theirs
      const others = message.reactions.filter((reaction) =>
        fromMe ? !(reaction.fromMe && reaction.userId === null) : !(!reaction.fromMe && reaction.contactId === contactId),
      );
      const reactions: MessageReaction[] = type ? [...others, { type, fromMe, userId: null, contactId }] : others;
      await trx('messages')
        .where({ companyId, id: message.id })
        .update({ reactions: JSON.stringify(reactions), updatedAt: new Date() });
      return message;
    });
    if (found) await emitMessageChanged(ctx, companyId, found.id, found.ticket);
  });
}
