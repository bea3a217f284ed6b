import {
  type BalcaoEvents,
  camelKeys,
  type InboxService,
  type PluginContext,
  perInstance,
  StatementBatcher,
  type SystemTicketChange,
} from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { AdminQueue, Chatbot, ChatbotTicket } from '../models';
import { choiceOf, menuText } from './bot-texts';
import { queueOptionRows } from './chatbot-tree';
import { type CompanyHours, companyHoursOf } from './company-hours.service';
import { type ConversationConfig, connectionProfile, conversationConfig } from './conversation-config';
import {
  asksLgpdConsent,
  LGPD_MAX_ASKS,
  LGPD_TEXTS,
  lgpdAnswerOf,
  lgpdQuestion,
  onCollectiveVacation,
} from './conversation-start';
import { looksLikeQuestion, waitingMessage } from './handoff';
import { scheduleRotation } from './rotation';
import { isWithinHours } from './schedules';

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
/** Going back one level in an option menu. */
const BACK = '0';
/** Going back to the menu of queues. */
const MAIN_MENU = '#';
/** Guards a tree whose queue options lead back to each other with single options (auto-picked). */
const MAX_AUTO_STEPS = 10;

/** The statuses of a ticket waiting for someone, that the bot may talk on (lgpd: waiting for consent). */
const BOT_STATUSES = new Set(['pending', 'lgpd']);

/** The ticket as a turn reads it. */
interface BotTicket {
  id: number;
  contactId: number;
  /** When the contact accepted the LGPD terms (null: never). */
  lgpdAcceptedAt: Date | null;
  status: string;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  isBot: boolean;
  amountUsedBotQueues: number;
  disableBot: boolean;
}

/** What a turn works with before the bot has a state on the ticket (vacation, consent). */
interface Conversation {
  ctx: PluginContext;
  inbox: InboxService;
  companyId: number;
  ticket: BotTicket;
  settings: Record<string, string>;
  hours: CompanyHours;
  /** The queue the turn starts in and its options, read with the ticket (see `loadBotTicket`). */
  prefetched: Prefetched;
  /** The connection's greeting, queues and limits, or the company's. */
  config: ConversationConfig;
  now: Date;
}

/** What one turn of the bot works with. */
interface Turn extends Conversation {
  state: ChatbotTicket;
  /**
   * The state was made by this turn and is not written yet: it is written once, before the turn's first
   * message or ticket change (whoever sees the ticket move — rotation — must find the bot's state) or at
   * its end, so a new conversation the bot settles at once (a queue without options) costs one write, not
   * an insert and an update.
   */
  unsaved: boolean;
}

/** Another process's turn made the ticket's state first: the conversation is that turn's. */
class TurnTaken extends Error {}

/** Writes a state this turn made (see `Turn.unsaved`); a state made meanwhile by another turn wins. */
async function persistState(conversation: Conversation): Promise<void> {
  const turn = conversation as Partial<Turn> & Conversation;
  if (!turn.unsaved || !turn.state) return;
  const { state } = turn;
  const made = await batchers(turn.ctx.db.knex).states.submit({
    ticketId: state.ticketId,
    companyId: turn.companyId,
    stage: state.stage,
    queueId: state.queueId,
    chatbotId: state.chatbotId,
    startedAt: state.startedAt,
    outOfHoursSentAt: state.outOfHoursSentAt,
  });
  if (!made) throw new TurnTaken();
  turn.unsaved = false;
  if (state.stage === 'done') rememberSettled(turn.ctx, turn.companyId, state.ticketId, 'done');
}

/** The queue a turn starts in (the bot's, else the ticket's) as `loadBotTicket` read it, with its options. */
interface Prefetched {
  queueId: number | null;
  queue: AdminQueue | undefined;
  options: Chatbot[];
}

/** A queue of the company: the one read with the ticket, else from the database. */
async function queueOf(turn: Conversation, queueId: number): Promise<AdminQueue | undefined> {
  if (queueId === turn.prefetched.queueId) return turn.prefetched.queue;
  return AdminQueue.query().findById(queueId);
}

/** A queue's options, in menu order: the ones read with the ticket, else from the database. */
async function optionRowsOf(turn: Conversation, queueId: number): Promise<Chatbot[]> {
  if (queueId === turn.prefetched.queueId) return turn.prefetched.options;
  return queueOptionRows(queueId);
}

/** Sends a product message on the ticket, with the message variables filled (docs/product/tickets-and-inbox.md#constants-and-limits). */
async function send(turn: Conversation, body: string | null | undefined): Promise<void> {
  if (!body || body.trim() === '') return;
  await persistState(turn);
  const profile = turn.config.profile;
  await turn.inbox.send({
    ticketId: turn.ticket.id,
    body,
    variables: { connection: profile ? { name: profile.name } : null },
  });
}

async function change(turn: Conversation, patch: Omit<SystemTicketChange, 'ticketId'>): Promise<boolean> {
  await persistState(turn);
  const changed = await turn.inbox.applyTicketChange({ ticketId: turn.ticket.id, ...patch });
  if (!changed) return false;
  if (patch.queueId !== undefined) turn.ticket.queueId = patch.queueId;
  if (patch.userId !== undefined) turn.ticket.userId = patch.userId;
  if (patch.status !== undefined) turn.ticket.status = patch.status;
  if (patch.isBot !== undefined) turn.ticket.isBot = patch.isBot;
  if (patch.amountUsedBotQueues !== undefined) turn.ticket.amountUsedBotQueues = patch.amountUsedBotQueues;
  return true;
}

/** Whether a state's field already holds a value (dates by their instant). */
function sameValue(current: unknown, next: unknown): boolean {
  if (current instanceof Date || next instanceof Date) {
    return current != null && next != null && new Date(current as Date).getTime() === new Date(next as Date).getTime();
  }
  return (current ?? null) === (next ?? null);
}

async function saveState(
  turn: Turn,
  patch: Partial<Pick<ChatbotTicket, 'stage' | 'queueId' | 'chatbotId' | 'outOfHoursSentAt'>>,
) {
  const fields = Object.keys(patch) as Array<keyof typeof patch>;
  // a state saved as it is (a queue entered right after the state was made for it) writes nothing
  const changed = fields.some((field) => !sameValue(turn.state[field], patch[field]));
  Object.assign(turn.state, patch);
  // a state not written yet is written whole later (persistState)
  if (turn.unsaved) return;
  if (changed) {
    await ChatbotTicket.query()
      .findById(turn.ticket.id)
      .patch({ ...patch, updatedAt: new Date() });
  }
  if (patch.stage === 'done') rememberSettled(turn.ctx, turn.companyId, turn.ticket.id, 'done');
}

/**
 * What this process already knows the bot won't do on a ticket, so that its next messages skip without a
 * query (most messages of a waiting ticket come after the bot): `done` — the bot finished with it, a terminal
 * stage nothing leaves — or a queue id — the ticket was already in that queue, pending, when the bot first
 * met it, so it is the agents' (it stays theirs while it waits in that queue: no bot state is ever made for
 * it). Bounded, oldest forgotten first (a forgotten ticket costs one query again); one per app.
 */
const SETTLED_LIMIT = 100_000;
const settledByApp = new WeakMap<PluginContext, Map<string, 'done' | number>>();

function settledOf(ctx: PluginContext): Map<string, 'done' | number> {
  let settled = settledByApp.get(ctx);
  if (!settled) {
    settled = new Map();
    settledByApp.set(ctx, settled);
  }
  return settled;
}

/** Remembers that the bot is done with a ticket (or that it is the agents' while it waits in `queueId`). */
export function rememberSettled(ctx: PluginContext, companyId: number, ticketId: number, verdict: 'done' | number): void {
  const settled = settledOf(ctx);
  const key = `${companyId}:${ticketId}`;
  settled.delete(key);
  settled.set(key, verdict);
  if (settled.size > SETTLED_LIMIT) settled.delete(settled.keys().next().value as string);
}

/** Whether a message of this ticket is, as far as this process knows, none of the bot's business. */
function knownSettled(ctx: PluginContext, event: BalcaoEvents['message.received']): boolean {
  const verdict = settledOf(ctx).get(`${event.companyId}:${event.ticketId}`);
  if (verdict === undefined) return false;
  if (verdict === 'done') return true;
  return event.ticket.status === 'pending' && event.ticket.queueId === verdict && !event.ticketCreated;
}

/** The bot is done with the ticket: it waits for an agent (or has been routed). */
async function finish(turn: Turn): Promise<void> {
  await saveState(turn, { stage: 'done' });
  if (turn.ticket.isBot) await change(turn, { isBot: false });
}

/**
 * Whether the bot may still ask (docs/product/administration.md#entities maxUseBotQueues, timeUseBotQueues — the connection's,
 * else the company's): at most maxUseBotQueues menus per ticket (0: no limit), and only within
 * timeUseBotQueues minutes of its first one (0: no limit). Past either, the bot stops and the ticket waits
 * for an agent.
 */
function mayAsk(turn: Turn): boolean {
  const { maxUseBotQueues, timeUseBotQueues } = turn.config;
  if (maxUseBotQueues > 0 && turn.ticket.amountUsedBotQueues >= maxUseBotQueues) return false;
  if (timeUseBotQueues > 0 && turn.now.getTime() - new Date(turn.state.startedAt).getTime() > timeUseBotQueues * 60_000)
    return false;
  return true;
}

/**
 * The bot hands the conversation over (its limits are spent, or the contact asked a question rather than
 * choosing): the contact is told that people will answer (the company's chatbotWaitingMessage, else the
 * product's text), the bot is done, and the ticket waits — in its queue when it has one, which then does
 * what a queue does for a newcomer (userRandom, sendQueuePosition, rotation).
 */
async function handOver(turn: Turn): Promise<void> {
  await send(turn, waitingMessage(turn.settings));
  await finish(turn);
  const queue = turn.ticket.queueId ? await queueOf(turn, turn.ticket.queueId) : undefined;
  if (queue) await afterLanding(turn, queue);
}

/** Sends a menu, counting it against maxUseBotQueues; past the bot's limits it hands over instead (false). */
async function ask(turn: Turn, text: string): Promise<boolean> {
  if (!mayAsk(turn)) {
    await handOver(turn);
    return false;
  }
  await send(turn, text);
  await change(turn, { amountUsedBotQueues: turn.ticket.amountUsedBotQueues + 1, isBot: true });
  return true;
}

/** The queues the menu offers, in menu order: the connection's (when it names some), else every queue of the company. */
async function menuQueues(turn: Turn): Promise<AdminQueue[]> {
  const query = AdminQueue.query().orderByRaw('order_queue ASC NULLS LAST, name ASC, id ASC');
  const ids = turn.config.queueIds;
  if (ids !== null) query.whereIn('id', ids);
  return query;
}

/** The menu of queues (the connection's or the company's greeting, then one line per queue). */
async function askQueue(turn: Turn, queues: AdminQueue[]): Promise<void> {
  await saveState(turn, { stage: 'queues', queueId: null, chatbotId: null });
  await ask(
    turn,
    menuText(
      turn.config.greetingMessage,
      queues.map((queue) => queue.name),
    ),
  );
}

/** The options offered under `parentId` (null: the queue's root options), in menu order. */
function levelOf(rows: Chatbot[], parentId: number | null): Chatbot[] {
  return rows.filter((row) => row.chatbotId === parentId);
}

/** The menu of one level of options: its intro, the options, and the ways back. */
async function askOption(turn: Turn, intro: string, options: Chatbot[], nested: boolean, severalQueues: boolean): Promise<void> {
  const extras: Array<[string, string]> = [];
  if (nested) extras.push([BACK, 'Voltar']);
  if (severalQueues) extras.push([MAIN_MENU, 'Menu inicial']);
  await ask(
    turn,
    menuText(
      intro,
      options.map((option) => option.name),
      extras,
    ),
  );
}

/**
 * After the ticket lands in a queue with nobody on it: a random agent of the queue (userRandom), or the
 * contact's place in line (sendQueuePosition), and the rotation's first step (ativarRoteador).
 */
async function afterLanding(turn: Turn, queue: AdminQueue): Promise<void> {
  const { knex } = turn.ctx.db;
  if (turn.settings.userRandom === 'enabled') {
    const rows: Array<{ userId: number }> = await knex('userQueues')
      .where({ companyId: turn.companyId, queueId: queue.id })
      .select('userId');
    const members = rows.map((row) => row.userId);
    if (members.length > 0) {
      const userId = members[Math.floor(Math.random() * members.length)] as number;
      await change(turn, { userId, expect: { status: 'pending', userId: null } });
    }
  } else if (turn.settings.sendQueuePosition === 'enabled') {
    const [{ count }] = (await knex('tickets')
      .where({ companyId: turn.companyId, queueId: queue.id, status: 'pending' })
      .whereNull('userId')
      .where('id', '<=', turn.ticket.id)
      .count({ count: '*' })) as [{ count: string | number }];
    const intro = turn.settings.sendQueuePositionMessage ?? '';
    await send(turn, `${intro.trim()} *${Number(count)}*`.trim());
  }
  if (queue.ativarRoteador && queue.tempoRoteador > 0) {
    // the rotation reads the bot's state
    await persistState(turn);
    await scheduleRotation(turn.ctx, turn.companyId, turn.ticket.id, queue, 1);
  }
}

/**
 * The ticket enters `queue` (chosen by number, picked alone, or sent there by an option): out of the
 * queue's hours (scheduleType queue) the contact gets its out-of-hours message and the ticket waits;
 * otherwise the queue's greeting, then its options (a single option is chosen by itself) or, without
 * options, the end of the bot (and the ticket closes when the queue says so).
 */
async function enterQueue(turn: Turn, queue: AdminQueue, steps: number, greet = true): Promise<void> {
  // the state first: whoever sees the ticket move (rotation) knows it is the bot's own move
  await saveState(turn, { stage: 'options', queueId: queue.id, chatbotId: null });
  if (turn.ticket.queueId !== queue.id) {
    await change(turn, { queueId: queue.id, logs: [{ type: 'queue', queueId: queue.id }] });
  }
  if (turn.settings.scheduleType === 'queue' && !isWithinHours(queue.schedules ?? [], turn.now)) {
    await send(turn, queue.outOfHoursMessage);
    await finish(turn);
    return;
  }
  const rows = await optionRowsOf(turn, queue.id);
  const roots = levelOf(rows, null);
  const greeting = greet ? queue.greetingMessage : null;
  if (roots.length === 1) {
    await send(turn, greeting);
    await saveState(turn, { stage: 'options', queueId: queue.id, chatbotId: null });
    await choose(turn, roots[0] as Chatbot, rows, steps + 1);
    return;
  }
  if (roots.length > 1) {
    await saveState(turn, { stage: 'options', queueId: queue.id, chatbotId: null });
    const severalQueues = (await menuQueues(turn)).length > 1;
    await askOption(turn, greeting ?? '', roots, false, severalQueues);
    return;
  }
  await send(turn, greeting);
  await finish(turn);
  if (queue.closeTicket) {
    await change(turn, { status: 'closed', logs: [{ type: 'closed' }] });
    return;
  }
  await afterLanding(turn, queue);
}

/**
 * The contact chose `option`: its message, then what its type does — text opens its nested options (a
 * single one is chosen by itself) or ends the bot; attendent hands the ticket to the user; queue moves it
 * to that queue (which greets in turn); integration hands it to the integration; file sends the file
 * list (its message until file lists exist). closeTicket closes the ticket after the message.
 */
async function choose(turn: Turn, option: Chatbot, rows: Chatbot[], steps: number): Promise<void> {
  if (steps > MAX_AUTO_STEPS) {
    await handOver(turn);
    return;
  }
  const children = levelOf(rows, option.id);
  if (option.queueType === 'text' && children.length > 1) {
    await saveState(turn, { chatbotId: option.id });
    const severalQueues = (await menuQueues(turn)).length > 1;
    await askOption(turn, option.greetingMessage, children, true, severalQueues);
    return;
  }
  await send(turn, option.greetingMessage);
  if (option.queueType === 'text' && children.length === 1) {
    await saveState(turn, { chatbotId: option.id });
    await choose(turn, children[0] as Chatbot, rows, steps + 1);
    return;
  }
  if (option.closeTicket) {
    await finish(turn);
    await change(turn, { status: 'closed', logs: [{ type: 'closed' }] });
    return;
  }
  switch (option.queueType) {
    case 'attendent': {
      await finish(turn);
      const user = option.optUserId
        ? await turn.ctx.db.knex('users').where({ id: option.optUserId, companyId: turn.companyId }).first('id')
        : null;
      if (user) {
        await change(turn, {
          status: 'open',
          userId: user.id,
          logs: [{ type: 'open', userId: user.id, queueId: turn.ticket.queueId }],
        });
      }
      return;
    }
    case 'queue': {
      const target = option.optQueueId ? await queueOf(turn, option.optQueueId) : undefined;
      if (!target) {
        await finish(turn);
        return;
      }
      await change(turn, { logs: [{ type: 'redirect', queueId: target.id }] });
      await enterQueue(turn, target, steps + 1);
      return;
    }
    case 'integration':
      await finish(turn);
      if (option.optIntegrationId) await change(turn, { useIntegration: true, integrationId: option.optIntegrationId });
      return;
    default: {
      // text without options, or file (no file-list feature is installed: the option's message only)
      await finish(turn);
      const queue = turn.ticket.queueId ? await queueOf(turn, turn.ticket.queueId) : undefined;
      if (queue) await afterLanding(turn, queue);
    }
  }
}

/** The queue stage: the contact picks a queue by number; anything else gets the menu again. */
async function queueTurn(turn: Turn, body: string, firstTurn: boolean): Promise<void> {
  const queues = await menuQueues(turn);
  if (queues.length === 0) {
    await finish(turn);
    return;
  }
  if (queues.length === 1) {
    // the only queue is chosen by itself; its greeting only with sendGreetingMessageOneQueues
    await enterQueue(turn, queues[0] as AdminQueue, 0, turn.settings.sendGreetingMessageOneQueues === 'enabled');
    return;
  }
  const choice = firstTurn ? null : choiceOf(body);
  const queue = choice === null ? undefined : queues[choice - 1];
  if (queue) {
    await enterQueue(turn, queue, 0);
    return;
  }
  // an answer to the menu that is plainly a question waits for people rather than getting the menu again
  if (!firstTurn && looksLikeQuestion(body)) {
    await handOver(turn);
    return;
  }
  await askQueue(turn, queues);
}

/** The option stage: a number picks an option of the level on offer; 0 goes back a level, # to the queues. */
async function optionTurn(turn: Turn, body: string): Promise<void> {
  const queue = turn.state.queueId ? await queueOf(turn, turn.state.queueId) : undefined;
  if (!queue) {
    await finish(turn);
    return;
  }
  const rows = await optionRowsOf(turn, queue.id);
  const queues = await menuQueues(turn);
  const text = body.trim();
  if (text === MAIN_MENU && queues.length > 1) {
    await change(turn, { queueId: null });
    await askQueue(turn, queues);
    return;
  }
  let parentId = turn.state.chatbotId;
  if (text === BACK && parentId !== null) {
    parentId = rows.find((row) => row.id === parentId)?.chatbotId ?? null;
    await saveState(turn, { chatbotId: parentId });
  } else {
    const level = levelOf(rows, parentId);
    const choice = choiceOf(text);
    const option = choice === null ? undefined : level[choice - 1];
    if (option) {
      await choose(turn, option, rows, 0);
      return;
    }
    if (looksLikeQuestion(text)) {
      await handOver(turn);
      return;
    }
  }
  const parent = parentId === null ? null : rows.find((row) => row.id === parentId);
  await askOption(
    turn,
    parent ? parent.greetingMessage : (queue.greetingMessage ?? ''),
    levelOf(rows, parentId),
    parent !== null,
    queues.length > 1,
  );
}

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
  return batchers(knex).tickets.submit({ companyId, ticketId });
}

/** The tickets of `loadBotTicket`, several in one query (see `batchers`), in the order asked. */
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

/** A bot state as a turn writes it first (see `persistState`). */
interface NewState {
  ticketId: number;
  companyId: number;
  stage: ChatbotTicket['stage'];
  queueId: number | null;
  chatbotId: number | null;
  startedAt: Date;
  outOfHoursSentAt: Date | null;
}

/** Writes new states (a state made meanwhile by another turn is kept); answers whether each was made. */
async function insertStates(knex: Knex, states: NewState[]): Promise<boolean[]> {
  const made = (await knex('chatbotTickets').insert(states).onConflict('ticketId').ignore().returning('ticketId')) as Array<{
    ticketId: number;
  }>;
  const madeIds = new Set(made.map((row) => row.ticketId));
  return states.map((state) => madeIds.has(state.ticketId));
}

/**
 * The bot's two statements of every new conversation — reading the ticket (with what the turn reads next)
 * and writing the state it makes — gathered across the turns running at once, as the inbox gathers inbound
 * messages (StatementBatcher): a burst of new conversations costs a few statements, not two each. One per
 * app (knex instance).
 */
const batchers = perInstance((knex: Knex) => ({
  tickets: new StatementBatcher<BotTicketKey, LoadedBotTicket | null>({
    runOne: async (key) => (await loadBotTickets(knex, [key]))[0] ?? null,
    runMany: (keys) => loadBotTickets(knex, keys),
    conflicts: () => false,
    maxInFlight: 2,
    maxBatch: 50,
  }),
  states: new StatementBatcher<NewState, boolean>({
    runOne: async (state) => (await insertStates(knex, [state]))[0] === true,
    runMany: (states) => insertStates(knex, states),
    // one statement can't insert a ticket's state twice (a turn of each process, say)
    conflicts: (earlier, state) => earlier.ticketId === state.ticketId,
    maxInFlight: 2,
    maxBatch: 50,
  }),
}));

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
  };
  const body = event.body;
  // vacation, then consent, then hours, then the menus (docs/channels/conversation-start.md)
  if (await vacationTurn(conversation)) return;
  let firstTurn = !state;
  if (ticket.status === 'lgpd') {
    if (!(await consentTurn(conversation, body))) return;
    // consent given: the bot starts now, as on a new ticket (the answer is no menu choice)
    state = await ChatbotTicket.query().findById(ticketId);
    firstTurn = true;
  } else if (!state && needsConsent(conversation)) {
    await askConsent(conversation);
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
