import { AppError, CHANNEL_PLAN_FLAGS, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import type { ExistingTicketInfo, Ticket as TicketShape, TicketStatus } from '../../shared/types';
import { Contact } from '../models/contact';
import { Queue } from '../models/queue';
import { Ticket } from '../models/ticket';
import { writeTicketLog } from './ticket-log.service';
import { notifyTicketChanged } from './ticket-notify';

/** The unique partial index that keeps one ticket that is not closed per contact and connection. */
const ONE_ACTIVE_INDEX = 'tickets_one_active_per_contact';

/** Whether a database error is the one-active-ticket index refusing a second active ticket (a race). */
export function isOneActiveTicketViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const candidates = [error, (error as { nativeError?: unknown }).nativeError];
  return candidates.some((candidate) => {
    if (typeof candidate !== 'object' || candidate === null) return false;
    const { code, constraint } = candidate as { code?: unknown; constraint?: unknown };
    return constraint === ONE_ACTIVE_INDEX && (code === undefined || code === '23505');
  });
}

/** Another ticket of the contact on the same connection that is not closed, if any. */
export async function otherActiveTicketId(
  knex: Knex,
  companyId: number,
  ticket: { contactId: number; whatsappId: number | null },
  exceptId?: number,
): Promise<number | null> {
  const query = knex('tickets')
    .where({ companyId, contactId: ticket.contactId })
    .whereNot('status', 'closed')
    .whereRaw('coalesce(whatsapp_id, 0) = ?', [ticket.whatsappId ?? 0])
    .first('id');
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  const row = (await query) as { id: number } | undefined;
  return row?.id ?? null;
}

/** What the `ERR_OTHER_OPEN_TICKET` body tells about the existing ticket (docs/product/tickets-and-inbox.md#calls-and-realtime-events). */
export async function existingTicketInfo(knex: Knex, companyId: number, ticketId: number): Promise<ExistingTicketInfo | null> {
  const row = (await knex('tickets as t')
    .leftJoin('users as u', 'u.id', 't.userId')
    .leftJoin('queues as q', 'q.id', 't.queueId')
    .where('t.companyId', companyId)
    .where('t.id', ticketId)
    .first('t.userId', 'u.name as userName', 'q.name as queueName', 't.uuid', 't.status')) as ExistingTicketInfo | undefined;
  if (!row) return null;
  return { userId: row.userId, userName: row.userName, queueName: row.queueName, uuid: row.uuid, status: row.status };
}

/**
 * `409 ERR_OTHER_OPEN_TICKET` naming the contact's other active ticket: `message` is the JSON text of
 * ExistingTicketInfo, as the documented client parses it.
 */
export async function otherOpenTicketError(
  knex: Knex,
  companyId: number,
  ticket: { contactId: number; whatsappId: number | null },
  exceptId?: number,
): Promise<AppError> {
  const otherId = await otherActiveTicketId(knex, companyId, ticket, exceptId);
  const info = otherId === null ? null : await existingTicketInfo(knex, companyId, otherId);
  return info ? new AppError('ERR_OTHER_OPEN_TICKET', { message: JSON.stringify(info) }) : new AppError('ERR_OTHER_OPEN_TICKET');
}

/** Throws 404 ERR_NO_QUEUE_FOUND unless the queue is the company's. */
export async function requireQueue(queueId: number, trx?: Knex.Transaction): Promise<void> {
  const queue = await Queue.query(trx).findById(queueId).select('id');
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
}

/** Throws 404 ERR_NO_USER_FOUND unless the user is the company's. */
export async function requireUser(knex: Knex, companyId: number, userId: number): Promise<void> {
  const user = await knex('users').where({ id: userId, companyId }).first('id');
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
}

/**
 * The connection a new ticket goes out on, checked: a connection of the company (404 ERR_NO_WAPP_FOUND
 * otherwise — another company's included) whose channel the company's plan allows (403
 * ERR_PLAN_FEATURE_DISABLED). Without one named, a company that has connections is refused
 * (ERR_NO_DEF_WAPP_FOUND): the ticket would have no way to reach the contact.
 */
async function ticketConnection(ctx: PluginContext, companyId: number, connectionId: number | null): Promise<void> {
  const connections = ctx.services.has('connections') ? ctx.services.use('connections') : null;
  if (connectionId === null) {
    if (connections && (await connections.hasAny(companyId))) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    return;
  }
  const profile = connections ? await connections.profile(companyId, connectionId) : null;
  if (!profile || profile.companyId !== companyId) throw new AppError('ERR_NO_WAPP_FOUND');
  const flag = CHANNEL_PLAN_FLAGS[profile.channel] ?? null;
  if (flag) await ctx.plans.require(companyId, flag);
}

/** `POST /tickets` body (docs/inbox-api.md). */
export interface CreateTicketInput {
  contactId: number;
  userId?: number | null;
  status?: 'open' | 'pending' | 'group';
  queueId?: number | null;
  whatsappId?: number | null;
}

/**
 * Creates a ticket for a contact of the company (docs/product/tickets-and-inbox.md#states-and-transitions) — one with a number, in a queue and, when the
 * company has connections, on one of its connections its plan allows: open (group for a group contact) with its user
 * — the caller unless another is named — or pending without one. A contact that already has a ticket that
 * is not closed on the same connection gets `409 ERR_OTHER_OPEN_TICKET` naming it, also when a concurrent
 * request wins the race (the unique index refuses the second). Logs `create`, and `open` when created open.
 * Returns the ticket as the API shows it (unmasked).
 */
export async function createTicket(
  ctx: PluginContext,
  companyId: number,
  actor: { id: number },
  input: CreateTicketInput,
): Promise<TicketShape> {
  const { knex } = ctx.db;
  const contact = await Contact.query().findById(input.contactId).select('id', 'isGroup', 'channel', 'number');
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  // docs/product/tickets-and-inbox.md#validation: a new ticket needs a contact with a number (a group is its own address), a queue and a connection
  if (!contact.isGroup && !contact.number?.trim()) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const queueId = input.queueId ?? null;
  if (queueId === null) throw new AppError('ERR_QUEUE_REQUIRED');
  await requireQueue(queueId);
  const connectionId = input.whatsappId ?? null;
  await ticketConnection(ctx, companyId, connectionId);

  const wantsOpen = input.status === 'open' || input.status === 'group' || (input.status === undefined && input.userId != null);
  const userId = wantsOpen ? (input.userId ?? actor.id) : null;
  if (userId !== null && userId !== actor.id) await requireUser(knex, companyId, userId);
  const status: TicketStatus = wantsOpen ? (contact.isGroup ? 'group' : 'open') : 'pending';
  const identity = { contactId: contact.id, whatsappId: connectionId };

  if ((await otherActiveTicketId(knex, companyId, identity)) !== null) {
    throw await otherOpenTicketError(knex, companyId, identity);
  }
  let ticketId: number;
  try {
    ticketId = await ctx.db.transaction(async (trx) => {
      const ticket = await Ticket.query(trx).insert({
        contactId: contact.id,
        status,
        userId,
        queueId,
        whatsappId: connectionId,
        channel: contact.channel,
        isGroup: contact.isGroup,
      });
      await writeTicketLog(ticket.id, 'create', { userId: actor.id, queueId }, trx);
      if (status !== 'pending') await writeTicketLog(ticket.id, 'open', { userId, queueId }, trx);
      return ticket.id;
    });
  } catch (error) {
    if (isOneActiveTicketViolation(error)) throw await otherOpenTicketError(knex, companyId, identity);
    throw error;
  }
  const ticket = await notifyTicketChanged(ctx, companyId, ticketId, null);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}
