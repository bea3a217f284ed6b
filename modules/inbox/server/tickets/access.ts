import type { PluginContext, RequestSession } from '@balcao/plugin-sdk/server';
import { Ticket } from '../models/ticket';
import { inboxState } from '../state';
import { canSeeTicket } from './visibility';

/** Whether a session's user may see a ticket (for joinChatBox): the viewer comes from the audience cache. */
export async function canUserSeeTicketId(ctx: PluginContext, session: RequestSession, ticketId: number): Promise<boolean> {
  if (!Number.isInteger(ticketId) || ticketId < 1 || ticketId > 2_147_483_647) return false;
  const ticket = await Ticket.query().findById(ticketId).select('userId', 'queueId', 'isGroup', 'status');
  if (!ticket) return false;
  const audience = await inboxState(ctx).realtime.audience(session.companyId);
  const viewer = audience.viewers.find((candidate) => candidate.id === session.userId);
  return viewer !== undefined && canSeeTicket(viewer, ticket);
}
