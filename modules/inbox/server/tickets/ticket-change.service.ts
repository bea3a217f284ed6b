import { currentTenant, type PluginContext, type SessionUser, type SystemTicketChange } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { TicketLogType } from '../../shared/types';
import { Ticket } from '../models/ticket';
import { inboxState } from '../state';
import { writeTicketLog } from './ticket-log.service';
import { notifyTicketChanged, visibleState } from './ticket-notify';
import { canSeeTicket, type VisibleTicketFields, viewerOf } from './visibility';

/** The fields visibility reads of a ticket of the company; null when there is none. */
async function visibilityFields(knex: Knex, companyId: number, ticketId: number): Promise<VisibleTicketFields | null> {
  const row = (await knex('tickets').where({ companyId, id: ticketId }).first('userId', 'queueId', 'isGroup', 'status')) as
    | VisibleTicketFields
    | undefined;
  return row ?? null;
}

/** Whether a user may see a ticket of their company (`InboxService.canSeeTicket`). */
export async function userCanSeeTicket(ctx: PluginContext, user: SessionUser, ticketId: number): Promise<boolean> {
  const ticket = await visibilityFields(ctx.db.knex, user.companyId, ticketId);
  return ticket !== null && canSeeTicket(viewerOf(user), ticket);
}

/** The ids of the users who may see a ticket (`InboxService.ticketAudience`); none when it doesn't exist. */
export async function ticketAudience(ctx: PluginContext, companyId: number, ticketId: number): Promise<number[]> {
  const ticket = await visibilityFields(ctx.db.knex, companyId, ticketId);
  return ticket ? inboxState(ctx).realtime.entitledUserIds(companyId, ticket) : [];
}

/**
 * A change another feature makes to a ticket (`InboxService.applyTicketChange`): applied under a row lock
 * while the ticket still has the expected values, with its log entries, then announced. False when the
 * ticket is gone or no longer as expected.
 */
export async function applyTicketChange(ctx: PluginContext, change: SystemTicketChange): Promise<boolean> {
  const companyId = currentTenant()?.companyId;
  if (companyId === undefined) throw new Error('inbox applyTicketChange: no tenant scope');
  const before = await ctx.db.transaction(async (trx) => {
    const ticket = await Ticket.query(trx).findById(change.ticketId).forUpdate();
    if (!ticket) return null;
    const expected = change.expect ?? {};
    for (const key of ['status', 'queueId', 'userId'] as const) {
      if (expected[key] !== undefined && expected[key] !== ticket[key]) return null;
    }
    const patch: Partial<Ticket> = { updatedAt: new Date() };
    if (change.status !== undefined) {
      patch.status = change.status;
      patch.closedAt = change.status === 'closed' ? new Date() : null;
      if (change.status === 'closed') patch.unreadMessages = 0;
    }
    if (change.queueId !== undefined) patch.queueId = change.queueId;
    if (change.userId !== undefined) patch.userId = change.userId;
    if (change.isBot !== undefined) patch.isBot = change.isBot;
    if (change.amountUsedBotQueues !== undefined) patch.amountUsedBotQueues = change.amountUsedBotQueues;
    if (change.useIntegration !== undefined) patch.useIntegration = change.useIntegration;
    if (change.integrationId !== undefined) patch.integrationId = change.integrationId;
    await Ticket.query(trx).findById(ticket.id).patch(patch);
    for (const entry of change.logs ?? []) {
      await writeTicketLog(ticket.id, entry.type as TicketLogType, { userId: entry.userId, queueId: entry.queueId }, trx);
    }
    return visibleState(ticket);
  });
  if (!before) return false;
  await notifyTicketChanged(ctx, companyId, change.ticketId, before);
  return true;
}
