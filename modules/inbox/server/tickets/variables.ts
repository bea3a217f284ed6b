import type { PluginContext } from '@balcao/plugin-sdk/server';
import { fillMessageVariables } from '../../shared/message-variables';
import { loadTicket } from './serializer';

/**
 * Fills the message variables of docs/product/tickets-and-inbox.md#constants-and-limits in a text sent on a ticket, from the ticket as stored now: its
 * contact, queue, connection (or `connection` when given) and user (or `user`, the agent who sends it).
 * Texts without `{{` are answered as they are, without a query.
 */
export async function fillTicketVariables(
  ctx: PluginContext,
  companyId: number,
  ticketId: number,
  template: string,
  given: { user?: { name: string | null } | null; connection?: { name: string } | null } = {},
): Promise<string> {
  if (!template.includes('{{')) return template;
  const ticket = await loadTicket(ctx.db.knex, companyId, ticketId);
  if (!ticket) return template;
  return fillMessageVariables(template, {
    contact: ticket.contact,
    user: given.user ?? ticket.user,
    ticket,
    queue: ticket.queue,
    connection: given.connection ?? ticket.whatsapp,
  });
}
