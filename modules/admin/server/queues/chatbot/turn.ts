import { type BalcaoEvents, camelKeys, type PluginContext, perInstance, StatementBatcher } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { AdminQueue, Chatbot, ChatbotTicket } from '../models';
import { type CompanyHours, companyHoursOf } from '../services/company-hours.service';
import { isWithinHours } from '../services/schedules';
import {
  type BotTicket,
  type Conversation,
  change,
  finish,
  knownSettled,
  type Prefetched,
  persistState,
  queueOf,
  rememberSettled,
  saveState,
  send,
  type Turn,
  TurnTaken,
} from './conversation';
import { connectionProfile, conversationConfig } from './conversation-config';
import {
  asksLgpdConsent,
  LGPD_MAX_ASKS,
  LGPD_TEXTS,
  lgpdAnswerOf,
  lgpdQuestion,
  onCollectiveVacation,
} from './conversation-start';
import { enterQueue, optionTurn, queueTurn } from './menu';

/**
 * The chatbot at work (docs/product/administration.md#states-and-transitions Queue chatbot; docs/decisions.md "Administration — queues,
 * chatbot and service hours"). It listens to `message.received` on the event bus, so every channel's
 * conversations get it, and works only on tickets waiting for someone: pending, unassigned, not a group,
 * of a contact whose bot is not disabled.
 *
 * A turn reads the contact's text, decides, sends the product's messages through the inbox and moves
 * the ticket through the inbox's `applyTicketChange` (logs, realtime and `ticket.updated` included).
 *
 * The ticket's connection decides the greeting, the queues on offer, the limits, the hours (scheduleType
 * connection), the collective vacation and the LGPD text, read through the channels plugin's `connections`
 * service; without it (or without the connection) the company's settings do, as before connections. A turn
 * goes: vacation, then LGPD consent, then hours, then the menus — all in this one handler, so that the
 * order holds whatever order the features' bus handlers run in (docs/channels/conversation-start.md).
 */

/**
 * The turns of each ticket, chained: two messages of one contact are answered one after another. A
 * ticket's messages arrive through its connection's driver, which lives in one process, and the bus runs
 * handlers in the process that published, so ordering them here is enough. (A database lock held for the
 * turn would pin a pooled connection while the turn needs others: a burst of contacts could exhaust the
 * pool.)
 */
const turnsByTicket = new Map<string, Promise<void>>();

function oneAtATime(key: string, run: () => Promise<void>): Promise<void> {
  const previous = turnsByTicket.get(key) ?? Promise.resolve();
  const current = previous.then(run, run);
  const settled = current.catch(() => undefined);
  turnsByTicket.set(key, settled);
  void settled.then(() => {
    if (turnsByTicket.get(key) === settled) turnsByTicket.delete(key);
  });
  return current;
}

/** The statuses of a ticket waiting for someone, that the bot may talk on (lgpd: waiting for consent). */
const BOT_STATUSES = new Set(['pending', 'lgpd']);

/** Whether the company's hours (scheduleType company) say it is closed; then the contact is told once. */
async function closedForCompany(turn: Turn): Promise<boolean> {
  if (turn.settings.scheduleType !== 'company' || isWithinHours(turn.hours.schedules, turn.now)) return false;
  if (turn.hours.outOfHoursMessage.trim() === '') return false;
  if (!turn.state.outOfHoursSentAt) {
    await send(turn, turn.hours.outOfHoursMessage);
    await saveState(turn, { outOfHoursSentAt: turn.now });
  }
  return true;
}

/**
 * Whether the connection's hours (scheduleType connection) say it is closed: the contact gets the
 * connection's outOfHoursMessage once and the bot is done with the ticket, which waits for an agent. A
 * connection without an out-of-hours message keeps no hours (as the company's don't).
 */
async function closedForConnection(turn: Turn): Promise<boolean> {
  const profile = turn.config.profile;
  if (turn.settings.scheduleType !== 'connection' || !profile) return false;
  if (profile.outOfHoursMessage.trim() === '' || isWithinHours(profile.schedules, turn.now)) return false;
  await send(turn, profile.outOfHoursMessage);
  await saveState(turn, { outOfHoursSentAt: turn.now });
  await finish(turn);
  return true;
}

/**
 * The connection's collective vacation: the contact gets its message once and nothing else from the bot
 * on this ticket (the bot's state is done first, so a next message finds it so), which waits for an agent.
 */
async function vacationTurn(conversation: Conversation): Promise<boolean> {
  const { ctx, companyId, ticket, now, config } = conversation;
  if (!onCollectiveVacation(config.profile, now)) return false;
  await ctx.db
    .knex('chatbotTickets')
    .insert({ ticketId: ticket.id, companyId, stage: 'done', queueId: ticket.queueId, startedAt: now, outOfHoursSentAt: now })
    .onConflict('ticketId')
    .merge({ stage: 'done', outOfHoursSentAt: now, updatedAt: now });
  await send(conversation, config.profile?.collectiveVacationMessage);
  if (ticket.isBot) await change(conversation, { isBot: false });
  return true;
}

/** Whether the bot must first get the contact's consent (LGPD) before it starts on a new ticket. */
function needsConsent(conversation: Conversation): boolean {
  return asksLgpdConsent(conversation.settings) && conversation.ticket.lgpdAcceptedAt === null;
}

/** The ticket waits for the contact's consent (status lgpd, log `lgpd`) and the contact gets the question. */
async function askConsent(conversation: Conversation): Promise<void> {
  const moved = await change(conversation, {
    status: 'lgpd',
    isBot: true,
    amountUsedBotQueues: 1,
    logs: [{ type: 'lgpd' }],
    expect: { status: 'pending', userId: null },
  });
  if (moved) await send(conversation, lgpdQuestion(conversation.settings, conversation.config.profile));
}

/**
 * The contact's answer on a ticket waiting for consent. Accepting records it on the contact, returns the
 * ticket to pending (log `lgpdAccepted`) and answers true: the bot starts on it at once. Refusing gets a
 * short reply and closes the ticket (logs `lgpdRefused`, `closed`). Anything else gets the question again,
 * LGPD_MAX_ASKS times in all; then the bot says no more and the ticket waits in lgpd for an agent.
 */
async function consentTurn(conversation: Conversation, body: string): Promise<boolean> {
  const { ctx, inbox, companyId, ticket, now } = conversation;
  const answer = lgpdAnswerOf(body);
  if (answer === 'accept') {
    await inbox.recordLgpdConsent(ticket.contactId, now);
    // the bot's state before the ticket shows as pending: whoever sees it waiting (rotation) leaves it to the bot
    const stage = ticket.queueId === null ? 'queues' : 'options';
    await ctx.db
      .knex('chatbotTickets')
      .insert({ ticketId: ticket.id, companyId, stage, queueId: ticket.queueId, startedAt: now })
      .onConflict('ticketId')
      .merge({ stage, queueId: ticket.queueId, chatbotId: null, startedAt: now, updatedAt: now });
    return change(conversation, {
      status: 'pending',
      amountUsedBotQueues: 0,
      logs: [{ type: 'lgpdAccepted' }],
      expect: { status: 'lgpd', userId: null },
    });
  }
  if (answer === 'refuse') {
    await send(conversation, LGPD_TEXTS.refused);
    await change(conversation, {
      status: 'closed',
      isBot: false,
      logs: [{ type: 'lgpdRefused' }, { type: 'closed' }],
      expect: { status: 'lgpd', userId: null },
    });
    return false;
  }
  if (ticket.amountUsedBotQueues >= LGPD_MAX_ASKS) {
    if (ticket.isBot) await change(conversation, { isBot: false });
    return false;
  }
  await send(conversation, lgpdQuestion(conversation.settings, conversation.config.profile));
  await change(conversation, { amountUsedBotQueues: ticket.amountUsedBotQueues + 1 });
  return false;
}

/** What `loadBotTicket` reads. */
interface LoadedBotTicket extends BotTicket {
  botStage: string | null;
  /** Handed to an integration or a flow (the ticket header's integration toggle on): theirs, not the bot's. */
  useIntegration: boolean;
  /** The company's service hours row (null: none saved, or the bot is done with the ticket). */
  hours: CompanyHours | null;
  prefetched: Prefetched;
}

/**
 * The ticket as a turn reads it, with the bot's stage on it (null before its first turn), or null. One
 * query: it runs for every inbound message of a waiting ticket, most of them past the bot ('done'). Unless
 * the bot is done, it also reads what a turn reads next — the company's service hours, and the queue the
 * turn starts in (the bot's, else the ticket's) with its options — which were three more round trips on
 * every new conversation (docs/benchmarks.md, "Inbox").
 */
async function loadBotTicket(knex: Knex, companyId: number, ticketId: number): Promise<LoadedBotTicket | null> {
  return ticketReads(knex).submit({ companyId, ticketId });
}

/** The tickets of `loadBotTicket`, several in one query (see `ticketReads`), in the order asked. */
async function loadBotTickets(knex: Knex, keys: BotTicketKey[]): Promise<Array<LoadedBotTicket | null>> {
  const working = `ct.stage IS DISTINCT FROM 'done'`;
  const startQueue = 'coalesce(ct.queue_id, t.queue_id)';
  const rows = await knex('tickets as t')
    .join('contacts as c', 'c.id', 't.contactId')
    .leftJoin('chatbotTickets as ct', 'ct.ticketId', 't.id')
    .whereIn(
      ['t.companyId', 't.id'],
      keys.map((key) => [key.companyId, key.ticketId]),
    )
    .select(
      't.companyId',
      'ct.stage as botStage',
      't.id',
      't.contactId',
      't.status',
      't.queueId',
      't.userId',
      't.isGroup',
      't.isBot',
      't.amountUsedBotQueues',
      't.useIntegration',
      'c.disableBot',
      'c.lgpdAcceptedAt',
      'c.isGroup as contactIsGroup',
      knex.raw(`CASE WHEN ${working} THEN ${startQueue} END AS start_queue_id`),
      knex.raw(
        `CASE WHEN ${working} THEN (SELECT row_to_json(h) FROM company_service_hours h WHERE h.company_id = t.company_id) END AS hours_json`,
      ),
      knex.raw(
        `CASE WHEN ${working} THEN (SELECT row_to_json(q) FROM queues q WHERE q.company_id = t.company_id AND q.id = ${startQueue}) END AS queue_json`,
      ),
      knex.raw(
        `CASE WHEN ${working} THEN (SELECT json_agg(o ORDER BY o.order_option, o.id) FROM chatbots o
          WHERE o.company_id = t.company_id AND o.queue_id = ${startQueue}) END AS options_json`,
      ),
    );
  const byKey = new Map<string, LoadedBotTicket>();
  for (const row of rows) {
    const { companyId, contactIsGroup, startQueueId, hoursJson, queueJson, optionsJson, ...ticket } = row;
    const options = (optionsJson ?? []) as Array<Record<string, unknown>>;
    byKey.set(`${companyId}:${ticket.id}`, {
      ...ticket,
      isGroup: ticket.isGroup || contactIsGroup,
      hours: hoursJson ? camelKeys<CompanyHours>(hoursJson) : null,
      prefetched: {
        queueId: startQueueId ?? null,
        queue: queueJson ? AdminQueue.fromJson(camelKeys(queueJson), { skipValidation: true }) : undefined,
        options: options.map((option) => Chatbot.fromJson(camelKeys(option), { skipValidation: true })),
      },
    });
  }
  return keys.map((key) => byKey.get(`${key.companyId}:${key.ticketId}`) ?? null);
}

interface BotTicketKey {
  companyId: number;
  ticketId: number;
}

/**
 * The ticket read of every inbound message the bot may handle, gathered across the turns running at once,
 * as the inbox gathers inbound messages (StatementBatcher): a burst of new conversations costs a few
 * statements, not one each. One per app (knex instance).
 */
const ticketReads = perInstance(
  (knex: Knex) =>
    new StatementBatcher<BotTicketKey, LoadedBotTicket | null>({
      runOne: async (key) => (await loadBotTickets(knex, [key]))[0] ?? null,
      runMany: (keys) => loadBotTickets(knex, keys),
      conflicts: () => false,
      maxInFlight: 2,
      maxBatch: 50,
    }),
);

/**
 * Whether the flow builder starts one of its flows on this message (it decides: its triggers, its plan, a
 * flow with a document): the bot then stays out of the conversation. Without the flow builder, never.
 * `opening`: the message opens the conversation though it did not open the ticket (the contact's consent,
 * after which the flow builder starts what a new ticket's first message would have).
 */
async function flowTakesConversation(
  conversation: Conversation,
  event: BalcaoEvents['message.received'],
  opening = event.ticketCreated,
): Promise<boolean> {
  if (!conversation.ctx.services.has('flows')) return false;
  return conversation.ctx.services.use('flows').startsFor({
    companyId: conversation.companyId,
    ticketId: conversation.ticket.id,
    messageId: event.messageId,
    whatsappId: event.whatsappId,
    ticketCreated: opening,
    body: event.body,
  });
}

/**
 * One inbound message's turn (`message.received`, in the company's scope). Skips what the bot never
 * handles: messages sent from the company's phone, groups, contacts with the bot disabled, and tickets
 * someone attends or the bot has finished with.
 */
export async function chatbotTurn(ctx: PluginContext, event: BalcaoEvents['message.received'], now = new Date()): Promise<void> {
  if (event.fromMe) return;
  // only a ticket waiting for someone is the bot's; one an agent holds or a group never is (no query)
  const seen = event.ticket;
  if (!BOT_STATUSES.has(seen.status) || seen.userId !== null || seen.isGroup) return;
  if (knownSettled(ctx, event)) return;
  const { companyId, ticketId } = event;
  await oneAtATime(`${companyId}:${ticketId}`, () => runTurn(ctx, event, now));
}

async function runTurn(ctx: PluginContext, event: BalcaoEvents['message.received'], now: Date): Promise<void> {
  const { companyId, ticketId } = event;
  const ticket = await loadBotTicket(ctx.db.knex, companyId, ticketId);
  if (!ticket || ticket.isGroup || ticket.disableBot || !BOT_STATUSES.has(ticket.status) || ticket.userId !== null) return;
  // an integration or a flow answers this conversation: the bot never speaks over it
  if (ticket.useIntegration) return;
  if (ticket.botStage === 'done') {
    rememberSettled(ctx, companyId, ticketId, 'done');
    return;
  }
  // no stage in the join: the bot never met this ticket (no row to read)
  let state = ticket.botStage === null ? undefined : await ChatbotTicket.query().findById(ticketId);
  // a ticket that already has a queue and was not new is an agent's business, not the bot's
  if (!state && ticket.status === 'pending' && ticket.queueId !== null && !event.ticketCreated) {
    rememberSettled(ctx, companyId, ticketId, ticket.queueId);
    return;
  }
  const hours = companyHoursOf(ticket.hours);
  const conversation: Conversation = {
    ctx,
    inbox: ctx.services.use('inbox'),
    companyId,
    ticket,
    settings: await ctx.settings.all(companyId),
    hours,
    prefetched: ticket.prefetched,
    config: conversationConfig(await connectionProfile(ctx, companyId, event.whatsappId), hours),
    now,
    messageId: event.messageId,
  };
  const body = event.body;
  // vacation, then consent, then hours, then the menus (docs/channels/conversation-start.md)
  if (await vacationTurn(conversation)) return;
  let firstTurn = !state;
  if (ticket.status === 'lgpd') {
    if (!(await consentTurn(conversation, body))) return;
    if (await flowTakesConversation(conversation, event, true)) {
      // consent given and the connection's welcome (or not-phrase) flow starts on it: the bot has not met the
      // ticket, as when that flow starts on a new ticket (docs/product/automation.md "Flows at work")
      await ChatbotTicket.query().deleteById(ticketId);
      return;
    }
    // consent given: the bot starts now, as on a new ticket (the answer is no menu choice)
    state = await ChatbotTicket.query().findById(ticketId);
    firstTurn = true;
  } else if (!state && needsConsent(conversation)) {
    await askConsent(conversation);
    return;
  } else if (!state && (await flowTakesConversation(conversation, event))) {
    // a flow the flow builder starts on this message (its job, just after this turn) has the conversation
    // (docs/product/automation.md "Flows at work"): the bot stays out of it
    return;
  }
  // the bot meets the ticket: its state, written before the turn's first effect or at its end (Turn.unsaved)
  const unsaved = !state;
  state ??= ChatbotTicket.fromJson(
    {
      ticketId,
      stage: ticket.queueId === null ? 'queues' : 'options',
      queueId: ticket.queueId,
      chatbotId: null,
      startedAt: now,
      outOfHoursSentAt: null,
      rotationStep: 0,
    },
    { skipValidation: true },
  );
  if (state.stage === 'done') return;
  if (state.stage === 'queues' ? ticket.queueId !== null : ticket.queueId !== state.queueId) {
    // an agent put the ticket in a queue meanwhile: it is theirs now
    await ChatbotTicket.query().findById(ticketId).patch({ stage: 'done', updatedAt: now });
    rememberSettled(ctx, companyId, ticketId, 'done');
    return;
  }
  const turn: Turn = { ...conversation, state, unsaved };
  try {
    await stateTurn(turn, body, firstTurn);
    await persistState(turn);
  } catch (error) {
    // made meanwhile by another process's turn (none is chained before this one there): the ticket is its
    if (!(error instanceof TurnTaken)) throw error;
  }
}

/** A turn with the bot's state: the hours, then the menus. */
async function stateTurn(turn: Turn, body: string, firstTurn: boolean): Promise<void> {
  const { ticket, state } = turn;
  if (await closedForCompany(turn)) return;
  if (await closedForConnection(turn)) return;
  if (firstTurn && ticket.queueId !== null) {
    const queue = await queueOf(turn, ticket.queueId);
    if (queue) await enterQueue(turn, queue, 0);
    else await finish(turn);
  } else if (state.stage === 'options' && ticket.queueId !== null) {
    await optionTurn(turn, body);
  } else {
    await queueTurn(turn, body, firstTurn);
  }
}
