import {
  type BalcaoEvents,
  type InboxService,
  type PluginContext,
  perInstance,
  StatementBatcher,
  type SystemTicketChange,
} from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { AdminQueue, type Chatbot, ChatbotTicket } from '../models';
import { queueOptionRows } from '../services/chatbot-tree';
import type { CompanyHours } from '../services/company-hours.service';
import type { ConversationConfig } from './conversation-config';

/**
 * What one turn of the chatbot works with and the effects its parts share (docs/architecture.md#the-administration-module,
 * queues): the ticket as the turn reads it, the bot's state on it — written once, late (see
 * `Turn.unsaved`) — the product's messages and the ticket's changes through the inbox, and what this
 * process remembers of the tickets the bot is done with. The turn (`turn.ts`) drives it, the menus
 * (`menu.ts`) and the queue's handling of a newcomer (`rotation.ts`) act through it.
 */

/** The ticket as a turn reads it. */
export interface BotTicket {
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
export interface Conversation {
  ctx: PluginContext;
  inbox: InboxService;
  companyId: number;
  ticket: BotTicket;
  settings: Record<string, string>;
  hours: CompanyHours;
  /** The queue the turn starts in and its options, read with the ticket (see `loadBotTicket`, turn.ts). */
  prefetched: Prefetched;
  /** The connection's greeting, queues and limits, or the company's. */
  config: ConversationConfig;
  now: Date;
  /** The customer message this turn answers (the hand-off to an integration names it). */
  messageId?: number;
}

/** What one turn of the bot works with. */
export interface Turn extends Conversation {
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
export class TurnTaken extends Error {}

/** Writes a state this turn made (see `Turn.unsaved`); a state made meanwhile by another turn wins. */
export async function persistState(conversation: Conversation): Promise<void> {
  const turn = conversation as Partial<Turn> & Conversation;
  if (!turn.unsaved || !turn.state) return;
  const { state } = turn;
  const made = await stateWrites(turn.ctx.db.knex).submit({
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

/** The queue a turn starts in (the bot's, else the ticket's) as `loadBotTicket` (turn.ts) read it, with its options. */
export interface Prefetched {
  queueId: number | null;
  queue: AdminQueue | undefined;
  options: Chatbot[];
}

/** A queue of the company: the one read with the ticket, else from the database. */
export async function queueOf(turn: Conversation, queueId: number): Promise<AdminQueue | undefined> {
  if (queueId === turn.prefetched.queueId) return turn.prefetched.queue;
  return AdminQueue.query().findById(queueId);
}

/** A queue's options, in menu order: the ones read with the ticket, else from the database. */
export async function optionRowsOf(turn: Conversation, queueId: number): Promise<Chatbot[]> {
  if (queueId === turn.prefetched.queueId) return turn.prefetched.options;
  return queueOptionRows(queueId);
}

/** Sends a product message on the ticket, with the message variables filled (docs/product/tickets-and-inbox.md#constants-and-limits). */
export async function send(turn: Conversation, body: string | null | undefined): Promise<void> {
  if (!body || body.trim() === '') return;
  await persistState(turn);
  const profile = turn.config.profile;
  await turn.inbox.send({
    ticketId: turn.ticket.id,
    body,
    variables: { connection: profile ? { name: profile.name } : null },
  });
}

/** Changes the ticket through the inbox and keeps the turn's copy of it in step; false when the change did not apply. */
export async function change(turn: Conversation, patch: Omit<SystemTicketChange, 'ticketId'>): Promise<boolean> {
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

export async function saveState(
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
export function knownSettled(ctx: PluginContext, event: BalcaoEvents['message.received']): boolean {
  const verdict = settledOf(ctx).get(`${event.companyId}:${event.ticketId}`);
  if (verdict === undefined) return false;
  if (verdict === 'done') return true;
  return event.ticket.status === 'pending' && event.ticket.queueId === verdict && !event.ticketCreated;
}

/** The bot is done with the ticket: it waits for an agent (or has been routed). */
export async function finish(turn: Turn): Promise<void> {
  await saveState(turn, { stage: 'done' });
  if (turn.ticket.isBot) await change(turn, { isBot: false });
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
 * The state every new conversation's turn writes, gathered across the turns running at once, as the
 * inbox gathers inbound messages (StatementBatcher): a burst of new conversations costs a few statements,
 * not one each. One per app (knex instance).
 */
const stateWrites = perInstance(
  (knex: Knex) =>
    new StatementBatcher<NewState, boolean>({
      runOne: async (state) => (await insertStates(knex, [state]))[0] === true,
      runMany: (states) => insertStates(knex, states),
      // one statement can't insert a ticket's state twice (a turn of each process, say)
      conflicts: (earlier, state) => earlier.ticketId === state.ticketId,
      maxInFlight: 2,
      maxBatch: 50,
    }),
);
