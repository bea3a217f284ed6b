import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { Ticket } from '../../shared/types';
import { inboxState } from '../state';
import { loadTicket } from './serializer';
import type { VisibleTicketFields } from './visibility';

/** The visibility-relevant state of a ticket, to pass as `before` when it is about to change. */
export function visibleState(ticket: VisibleTicketFields): VisibleTicketFields {
  return { userId: ticket.userId, queueId: ticket.queueId, isGroup: ticket.isGroup, status: ticket.status };
}

/**
 * After a ticket was created or changed: emits `company-{id}-ticket` to the entitled users and publishes
 * `ticket.created` / `ticket.updated` on the event bus. Returns the ticket as the API shows it (unmasked).
 * `loaded`: the ticket as it is after the change (unmasked), when the writer read it already.
 */
export async function notifyTicketChanged(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  before: VisibleTicketFields | null,
  loaded?: Ticket,
): Promise<Ticket | null> {
  const ticket = loaded ?? (await loadTicket(ctx.db.knex, companyId, ticketId));
  if (!ticket) return null;
  await inboxState(ctx).realtime.ticketChanged(companyId, ticket, before);
  if (before === null) {
    await ctx.events.publish('ticket.created', {
      companyId,
      ticketId,
      status: ticket.status,
      whatsappId: ticket.whatsappId,
      isGroup: ticket.isGroup,
    });
  } else if (before.status !== ticket.status || before.userId !== ticket.userId || before.queueId !== ticket.queueId) {
    await ctx.events.publish('ticket.updated', {
      companyId,
      ticketId,
      status: ticket.status,
      previousStatus: before.status,
      userId: ticket.userId,
      queueId: ticket.queueId,
      whatsappId: ticket.whatsappId,
      isGroup: ticket.isGroup,
    });
  }
  return ticket;
}
