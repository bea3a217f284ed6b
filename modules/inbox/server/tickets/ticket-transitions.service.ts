import { AppError, type ConnectionProfile, defaultCustomerTexts, type PluginContext } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { fillMessageVariables } from '../../shared/message-variables';
import type { RatingChoice, TicketLogType, Ticket as TicketShape, TicketStatus } from '../../shared/types';
import { readContactMessages, sendReadReceipts } from '../messages/message-actions.service';
import { sendTextMessage } from '../messages/message-send.service';
import { Ticket } from '../models/ticket';
import { inboxState } from '../state';
import { loadTicket, loadTickets } from './serializer';
import {
  isOneActiveTicketViolation,
  otherActiveTicketId,
  otherOpenTicketError,
  requireQueue,
  requireUser,
} from './ticket-create.service';
import { writeTicketLog } from './ticket-log.service';
import { notifyTicketChanged, visibleState } from './ticket-notify';
import { canSeeTicket, type Viewer } from './visibility';

/** `PUT /tickets/:id` body (docs/inbox-api.md "Transitions"). */
export interface TicketUpdateInput {
  status?: 'open' | 'pending' | 'closed' | 'group';
  userId?: number | null;
  queueId?: number | null;
  msgTransfer?: string;
  isTransfered?: boolean;
  sendFarewellMessage?: boolean;
  /** On a resolve the rating applies to: `nps` asks the contact (the default), `none` closes without asking. */
  ratingId?: RatingChoice;
  amountUsedBotQueues?: number;
  useIntegration?: boolean;
}

/** The ticket columns a transition changes. */
type TicketPatch = Partial<
  Pick<
    Ticket,
    'status' | 'userId' | 'queueId' | 'unreadMessages' | 'closedAt' | 'useIntegration' | 'amountUsedBotQueues' | 'updatedAt'
  >
>;

/** A message the product sends once the change is committed. */
type AfterMessage = { kind: 'greeting' } | { kind: 'farewell' } | { kind: 'transfer'; text: string } | { kind: 'transferNotice' };

/** What one `PUT` does: the row's new columns, its log entries, and the messages to send after. */
interface TransitionPlan {
  patch: TicketPatch;
  logs: Array<{ type: TicketLogType; userId: number | null; queueId: number | null }>;
  messages: AfterMessage[];
  /** The ticket becomes active again (from closed): the contact must have no other active ticket. */
  reactivates: boolean;
  /** An agent takes the ticket: the contact's waiting messages are read (and the channel told). */
  readsMessages?: boolean;
}

/** The connection of a ticket as the transitions read it (the channels plugin's `connections` service). */
type ConnectionLookup = (connectionId: number | null) => Promise<ConnectionProfile | null>;

/** Reads connections through the `connections` service when the channels plugin is there; once per call. */
function connectionLookup(ctx: PluginContext, companyId: number): ConnectionLookup {
  const seen = new Map<number, Promise<ConnectionProfile | null>>();
  return (connectionId) => {
    if (connectionId === null || !ctx.services.has('connections')) return Promise.resolve(null);
    let profile = seen.get(connectionId);
    if (!profile) {
      profile = ctx.services.use('connections').profile(companyId, connectionId);
      seen.set(connectionId, profile);
    }
    return profile;
  };
}

/**
 * Whether resolving this ticket asks the contact for a rating first (docs/channels/lifecycle.md): the company's
 * userRating on, an open (not group) ticket with an agent and no rating yet. A connection without its own
 * ratingMessage asks the product's default question (`DEFAULT_CUSTOMER_TEXTS`). The ticket then waits in `nps`; the channels plugin sends the question and closes it on the answer.
 */
async function asksForRating(
  trx: Knex.Transaction,
  companyId: number,
  ticket: Ticket,
  settings: Record<string, string>,
): Promise<boolean> {
  if (settings.userRating !== 'enabled' || ticket.status !== 'open' || ticket.isGroup || ticket.userId === null) return false;
  const rated = await trx('ticketRatings').where({ companyId, ticketId: ticket.id }).first('id');
  return !rated;
}

const isAttended = (status: TicketStatus) => status === 'open' || status === 'group';
/** Statuses an agent "ignores" from (docs/product/tickets-and-inbox.md#states-and-transitions): waiting ones nobody attends. */
const isWaiting = (status: TicketStatus) => status === 'pending' || status === 'lgpd';

/**
 * The ticket as the viewer may act on it, or 404 ERR_NO_TICKET_FOUND when it doesn't exist in the company or
 * the viewer may not see it (docs/product/roles-and-permissions.md#roles-in-the-inbox: as if it did not exist).
 */
export async function findVisibleTicket(viewer: Viewer, ticketId: number, trx?: Knex.Transaction): Promise<Ticket> {
  const query = Ticket.query(trx).findById(ticketId);
  if (trx) query.forUpdate();
  const ticket = await query;
  if (!ticket || !canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/**
 * Decides what a `PUT` does to a ticket (docs/inbox-api.md "Transitions", docs/product/tickets-and-inbox.md#states-and-transitions):
 * - transfer (`isTransfered`): queue required; open (group) with a user, pending without; logs
 *   `transfered` and `receivedTransfer`; `msgTransfer` sent.
 * - accept (pending/lgpd/nps → open): user (the caller unless named) and queue (required); unread 0;
 *   log `open`; the accepted greeting when enabled.
 * - reopen (closed → open): the caller's; log `reopen`; refused while the contact has another active ticket.
 * - return to queue (open → pending): no user; log `pending`.
 * - resolve (open → closed): requiredTag needs a contact tag; log `closed`; farewell on request (the agent's
 *   farewellMessage, else the connection's complationMessage, else the product's default in the closer's
 *   language). With ratings on (`asksForRating`) the
 *   ticket goes to `nps` instead, to be closed by the rating flow (the farewell comes then).
 * - ignore (pending/lgpd → closed): only admins or userClosePendingTicket; log `closed`.
 * Without a status, a user on a waiting ticket accepts it and `userId: null` on an attended one returns it
 * to the queue; other changes of user or queue on an attended ticket log `transfered`/`receivedTransfer`
 * or `queue`.
 */
async function planTransition(
  knex: Knex,
  companyId: number,
  viewer: Viewer,
  ticket: Ticket,
  input: TicketUpdateInput,
  settings: Record<string, string>,
  trx: Knex.Transaction,
): Promise<TransitionPlan> {
  const plan: TransitionPlan = { patch: {}, logs: [], messages: [], reactivates: false };
  // a rating is chosen when resolving, nowhere else: anything else is a client's mistake, not a silent no-op
  if (input.ratingId !== undefined && (input.status !== 'closed' || input.isTransfered === true)) {
    throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.ratingId', message: 'only with status closed' }] });
  }
  const now = new Date();
  const current = ticket.status;
  const attendedStatus: TicketStatus = ticket.isGroup ? 'group' : 'open';
  if (input.queueId != null && input.queueId !== ticket.queueId) await requireQueue(input.queueId, trx);
  if (input.userId != null && input.userId !== viewer.id && input.userId !== ticket.userId) {
    await requireUser(knex, companyId, input.userId);
  }
  const log = (type: TicketLogType, userId: number | null, queueId: number | null) => plan.logs.push({ type, userId, queueId });

  if (input.isTransfered === true) {
    if (input.queueId == null) throw new AppError('ERR_QUEUE_REQUIRED');
    const userId = input.userId ?? null;
    plan.patch = { queueId: input.queueId, userId, status: userId === null ? 'pending' : attendedStatus };
    if (current === 'closed') {
      plan.patch.closedAt = null;
      plan.reactivates = true;
    }
    log('transfered', viewer.id, input.queueId);
    if (userId !== null) log('receivedTransfer', userId, input.queueId);
    // the company's standard notice first (sendMsgTransfTicket + transferMessage), then the agent's own words
    if (settings.sendMsgTransfTicket === 'enabled' && settings.transferMessage?.trim()) {
      plan.messages.push({ kind: 'transferNotice' });
    }
    const text = input.msgTransfer?.trim();
    if (text) plan.messages.push({ kind: 'transfer', text });
  } else {
    let target: TicketStatus | undefined = input.status;
    if (target === undefined && input.userId !== undefined) {
      if (input.userId !== null && !isAttended(current) && current !== 'closed') target = 'open';
      else if (input.userId === null && isAttended(current)) target = 'pending';
    }
    target ??= current;
    const queueId = input.queueId === undefined ? ticket.queueId : input.queueId;

    if (target === 'open' || target === 'group') {
      const userId = input.userId ?? viewer.id;
      if (current === 'closed') {
        plan.patch = { status: attendedStatus, userId, queueId, closedAt: null };
        plan.reactivates = true;
        log('reopen', userId, queueId);
      } else if (!isAttended(current)) {
        if (queueId === null) throw new AppError('ERR_QUEUE_REQUIRED');
        plan.patch = { status: attendedStatus, userId, queueId, unreadMessages: 0 };
        plan.readsMessages = true;
        log('open', userId, queueId);
        const greeting = settings.greetingAcceptedMessage?.trim();
        // a group would get it only with its connection's groupAsTicket, which the inbox doesn't read: groups get none
        if (current === 'pending' && settings.sendGreetingAccepted === 'enabled' && greeting && !ticket.isGroup) {
          plan.messages.push({ kind: 'greeting' });
        }
      } else {
        plan.patch = { status: attendedStatus, userId, queueId };
        if (userId !== ticket.userId) {
          log('transfered', viewer.id, queueId);
          log('receivedTransfer', userId, queueId);
        } else if (queueId !== ticket.queueId) {
          log('queue', viewer.id, queueId);
        }
      }
    } else if (target === 'pending') {
      if (isAttended(current)) {
        plan.patch = { status: 'pending', userId: null, queueId };
        log('pending', viewer.id, queueId);
      } else if (current === 'closed') {
        plan.patch = { status: 'pending', userId: null, queueId, closedAt: null };
        plan.reactivates = true;
        log('pending', viewer.id, queueId);
      } else {
        plan.patch = { status: 'pending', queueId };
        if (current !== 'pending') log('pending', viewer.id, queueId);
        else if (queueId !== ticket.queueId) log('queue', viewer.id, queueId);
      }
    } else if (target === 'closed') {
      if (current !== 'closed') {
        if (isWaiting(current)) {
          if (viewer.profile !== 'admin' && viewer.userClosePendingTicket !== 'enabled') throw new AppError('ERR_NO_PERMISSION');
        } else if (isAttended(current) && settings.requiredTag === 'enabled') {
          const tagged = await knex('contactTags').where({ companyId, contactId: ticket.contactId }).first('tagId');
          if (!tagged) throw new AppError('ERR_TICKET_TAG_REQUIRED');
        }
        // the agent's choice in the rating modal; without one (an API client) the company's rule asks
        if (input.ratingId !== 'none' && (await asksForRating(trx, companyId, ticket, settings))) {
          // resolved by the agent, closed by the rating flow (logged `closed` then)
          log('nps', viewer.id, queueId);
          // the answer's counter of invalid replies starts again (amountUsedBotQueues, unused while in nps)
          plan.patch = { status: 'nps', queueId, amountUsedBotQueues: 0 };
          return plan;
        }
        log('closed', viewer.id, queueId);
        plan.patch = { status: 'closed', closedAt: now, queueId };
        if (input.sendFarewellMessage === true) plan.messages.push({ kind: 'farewell' });
      } else if (queueId !== ticket.queueId) {
        plan.patch = { queueId };
        log('queue', viewer.id, queueId);
      }
    } else {
      // lgpd and nps are set by automation, never by this call (the schema refuses them)
      throw new AppError('ERR_VALIDATION');
    }
  }

  if (input.useIntegration !== undefined) plan.patch.useIntegration = input.useIntegration;
  if (input.amountUsedBotQueues !== undefined) plan.patch.amountUsedBotQueues = input.amountUsedBotQueues;
  return plan;
}

/** Whether a patch changes anything of the row. */
function changes(ticket: Ticket, patch: TicketPatch): boolean {
  return Object.entries(patch).some(([key, value]) => {
    const before = ticket[key as keyof TicketPatch];
    if (value instanceof Date || before instanceof Date) return true;
    return before !== value;
  });
}

/** Sends the texts a transition asks for, as the acting user, with the message variables filled. */
async function sendTransitionMessages(
  ctx: PluginContext,
  companyId: number,
  viewer: Viewer,
  ticket: TicketShape,
  messages: AfterMessage[],
  settings: Record<string, string>,
  connectionOf: ConnectionLookup,
  language: string | null,
): Promise<void> {
  if (messages.length === 0) return;
  const actor = (await ctx.db.knex('users').where({ id: viewer.id, companyId }).first('name', 'farewellMessage')) as
    | { name: string; farewellMessage: string | null }
    | undefined;
  const source = {
    contact: ticket.contact,
    user: ticket.user ?? (actor ? { name: actor.name } : null),
    ticket,
    queue: ticket.queue,
    // {{connection}}: the ticket's connection's name, through the connections service (cached)
    connection: ticket.whatsapp ?? (await connectionOf(ticket.whatsappId)),
  };
  for (const message of messages) {
    let template: string | undefined;
    if (message.kind === 'greeting') template = settings.greetingAcceptedMessage;
    else if (message.kind === 'farewell') {
      // closing always tells the visitor something: the product's farewell, in the closer's language, last
      template =
        actor?.farewellMessage?.trim() ||
        (await connectionOf(ticket.whatsappId))?.complationMessage.trim() ||
        defaultCustomerTexts(language).farewell;
    } else if (message.kind === 'transferNotice') template = settings.transferMessage;
    else template = message.text;
    const body = template?.trim() ? fillMessageVariables(template, source) : '';
    if (!body.trim()) continue;
    try {
      await sendTextMessage(ctx, {
        companyId,
        ticketId: ticket.id,
        body,
        userId: viewer.id,
        automation: message.kind === 'farewell' ? 'farewell' : null,
      });
    } catch (error) {
      // the transition is committed: a message that can't be stored is logged, not turned into a failed change
      ctx.log.error({ err: error, ticketId: ticket.id, kind: message.kind }, 'ticket transition message not sent');
    }
  }
}

/**
 * `PUT /tickets/:id`: applies one transition (see `planTransition`) in one transaction — the row (locked
 * while deciding) and its log entries — then emits to the entitled users and sends the product's messages
 * (greeting, farewell, transfer message). Returns the ticket as the API shows it (unmasked).
 */
export async function updateTicket(
  ctx: PluginContext,
  companyId: number,
  viewer: Viewer,
  ticketId: number,
  input: TicketUpdateInput,
  /** The closer's language (`Accept-Language`), for the product's default farewell. */
  language: string | null = null,
): Promise<TicketShape> {
  const { knex } = ctx.db;
  const settings = await ctx.settings.all(companyId);
  const connectionOf = connectionLookup(ctx, companyId);
  let outcome: {
    before: ReturnType<typeof visibleState>;
    messages: AfterMessage[];
    changed: boolean;
    read: { ticket: Ticket; channelIds: string[] } | null;
  };
  try {
    outcome = await ctx.db.transaction(async (trx) => {
      const ticket = await findVisibleTicket(viewer, ticketId, trx);
      const plan = await planTransition(knex, companyId, viewer, ticket, input, settings, trx);
      const changed = changes(ticket, plan.patch) || plan.logs.length > 0;
      if (changed) {
        if (plan.reactivates) {
          const identity = { contactId: ticket.contactId, whatsappId: ticket.whatsappId };
          if ((await otherActiveTicketId(trx, companyId, identity, ticket.id)) !== null) {
            throw await otherOpenTicketError(trx, companyId, identity, ticket.id);
          }
        }
        await Ticket.query(trx)
          .findById(ticket.id)
          .patch({ ...plan.patch, updatedAt: new Date() });
        for (const entry of plan.logs) {
          await writeTicketLog(ticket.id, entry.type, { userId: entry.userId, queueId: entry.queueId }, trx);
        }
      }
      // the unread count goes to 0 with the accept: the messages it counted are read with it
      const read =
        changed && plan.readsMessages ? { ticket, channelIds: await readContactMessages(trx, companyId, ticket.id) } : null;
      return { before: visibleState(ticket), messages: plan.messages, changed, read };
    });
  } catch (error) {
    if (isOneActiveTicketViolation(error)) {
      const ticket = await Ticket.query().findById(ticketId).select('contactId', 'whatsappId');
      throw ticket
        ? await otherOpenTicketError(knex, companyId, { contactId: ticket.contactId, whatsappId: ticket.whatsappId }, ticketId)
        : new AppError('ERR_OTHER_OPEN_TICKET');
    }
    throw error;
  }

  if (outcome.read) await sendReadReceipts(ctx, companyId, outcome.read.ticket, outcome.read.channelIds);
  let ticket = outcome.changed
    ? await notifyTicketChanged(ctx, companyId, ticketId, outcome.before)
    : await loadTicket(knex, companyId, ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (outcome.messages.length > 0) {
    await sendTransitionMessages(ctx, companyId, viewer, ticket, outcome.messages, settings, connectionOf, language);
    ticket = (await loadTicket(knex, companyId, ticketId)) ?? ticket;
  }
  return ticket;
}

/** `DELETE /tickets/:id`: removes the ticket (its messages, notes and logs go with it) and emits `delete`. */
export async function deleteTicket(ctx: PluginContext, companyId: number, viewer: Viewer, ticketId: number): Promise<void> {
  const ticket = await findVisibleTicket(viewer, ticketId);
  await Ticket.query().deleteById(ticket.id);
  await inboxState(ctx).realtime.ticketDeleted(companyId, ticket.id, visibleState(ticket));
}

/** Rows of one emit batch of `closeAll`. */
const CLOSE_ALL_BATCH = 200;

/**
 * `POST /tickets/closeAll`: closes every ticket of the company with `status`, in `queueIds` (all queues
 * when empty), in one statement with one `closed` log entry each; then emits each change to its audience.
 * Returns how many were closed.
 */
export async function closeAllTickets(
  ctx: PluginContext,
  companyId: number,
  actorId: number,
  status: TicketStatus,
  queueIds: number[],
): Promise<number> {
  if (status === 'closed') return 0;
  const { knex } = ctx.db;
  const closed = await ctx.db.transaction(async (trx) => {
    const now = new Date();
    const query = trx('tickets').where({ companyId, status });
    if (queueIds.length > 0) query.whereIn('queueId', queueIds);
    const rows = (await query
      .update({ status: 'closed', closedAt: now, updatedAt: now })
      .returning(['id', 'userId', 'queueId', 'isGroup'])) as Array<{
      id: number;
      userId: number | null;
      queueId: number | null;
      isGroup: boolean;
    }>;
    for (let start = 0; start < rows.length; start += 1_000) {
      await trx('ticketLogs').insert(
        rows
          .slice(start, start + 1_000)
          .map((row) => ({ companyId, ticketId: row.id, type: 'closed', userId: actorId, queueId: row.queueId })),
      );
    }
    return rows;
  });

  const { realtime } = inboxState(ctx);
  for (let start = 0; start < closed.length; start += CLOSE_ALL_BATCH) {
    const batch = closed.slice(start, start + CLOSE_ALL_BATCH);
    const tickets = await loadTickets(
      knex,
      companyId,
      batch.map((row) => row.id),
    );
    const beforeOf = new Map(
      batch.map((row) => [row.id, { userId: row.userId, queueId: row.queueId, isGroup: row.isGroup, status }]),
    );
    for (const ticket of tickets) {
      const before = beforeOf.get(ticket.id) ?? null;
      await realtime.ticketChanged(companyId, ticket, before);
      await ctx.events.publish('ticket.updated', {
        companyId,
        ticketId: ticket.id,
        status: ticket.status,
        previousStatus: status,
        userId: ticket.userId,
        queueId: ticket.queueId,
        whatsappId: ticket.whatsappId,
        isGroup: ticket.isGroup,
      });
    }
  }
  return closed.length;
}
