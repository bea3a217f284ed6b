import { AdminQueue, type Chatbot } from '../models';
import { isWithinHours } from '../services/schedules';
import { choiceOf, menuText } from './bot-texts';
import { change, finish, optionRowsOf, queueOf, saveState, send, type Turn } from './conversation';
import { sendFileList } from './file-list';
import { looksLikeQuestion, waitingMessage } from './handoff';
import { afterLanding } from './rotation';

/**
 * The chatbot's menus (docs/product/administration.md#states-and-transitions Queue chatbot): the menu of
 * queues, each queue's tree of options walked by number (0 back a level, # back to the queues), what an
 * option does when chosen, the bot's limits (maxUseBotQueues, timeUseBotQueues) and the handover to people
 * when they are spent or the contact asks a question instead of choosing.
 */

/** Going back one level in an option menu. */
const BACK = '0';
/** Going back to the menu of queues. */
const MAIN_MENU = '#';
/** Guards a tree whose queue options lead back to each other with single options (auto-picked). */
const MAX_AUTO_STEPS = 10;

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
 * The ticket enters `queue` (chosen by number, picked alone, or sent there by an option): out of the
 * queue's hours (scheduleType queue) the contact gets its out-of-hours message and the ticket waits;
 * otherwise the queue's greeting, then its options (a single option is chosen by itself) or, without
 * options, the end of the bot (and the ticket closes when the queue says so).
 */
export async function enterQueue(turn: Turn, queue: AdminQueue, steps: number, greet = true): Promise<void> {
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
  if (queue.integrationId) {
    // a queue with an integration: its greeting, then the integration answers (no menu)
    await send(turn, greet ? queue.greetingMessage : null);
    await handToIntegration(turn, queue.integrationId);
    return;
  }
  const rows = await optionRowsOf(turn, queue.id);
  const roots = levelOf(rows, null);
  const greeting = greet ? queue.greetingMessage : null;
  // the queue's file list (fileListId) follows its greeting, and its menu when it has one
  if (roots.length === 1) {
    await send(turn, greeting);
    await sendFileList(turn, queue.fileListId);
    await saveState(turn, { stage: 'options', queueId: queue.id, chatbotId: null });
    await choose(turn, roots[0] as Chatbot, rows, steps + 1);
    return;
  }
  if (roots.length > 1) {
    await saveState(turn, { stage: 'options', queueId: queue.id, chatbotId: null });
    const severalQueues = (await menuQueues(turn)).length > 1;
    await askOption(turn, greeting ?? '', roots, false, severalQueues);
    await sendFileList(turn, queue.fileListId);
    return;
  }
  await send(turn, greeting);
  await sendFileList(turn, queue.fileListId);
  await finish(turn);
  if (queue.closeTicket) {
    await change(turn, { status: 'closed', logs: [{ type: 'closed' }] });
    return;
  }
  await afterLanding(turn, queue);
}

/**
 * Ends the bot and hands the ticket to a queue integration: the integrations feature (when installed)
 * answers from here on and hands the ticket back to its queue when the integration fails
 * (docs/product/automation.md "Queue integrations at work").
 */
async function handToIntegration(turn: Turn, integrationId: number): Promise<void> {
  await finish(turn);
  // without the plan's integrations nothing would answer the ticket: it waits in its queue for people
  if (!(await turn.ctx.plans.has(turn.companyId, 'useIntegrations'))) return;
  if (await change(turn, { useIntegration: true, integrationId })) {
    await turn.ctx.events.publish('ticket.integrationStarted', {
      companyId: turn.companyId,
      ticketId: turn.ticket.id,
      integrationId,
      messageId: turn.messageId ?? null,
    });
  }
}

/**
 * The contact chose `option`: its message, then what its type does — text opens its nested options (a
 * single one is chosen by itself) or ends the bot; attendent hands the ticket to the user; queue moves it
 * to that queue (which greets in turn); integration hands it to the integration; file sends the file
 * list `optFileId` (its message, then its files) and ends the bot. closeTicket closes the ticket after the message.
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
    if (option.queueType === 'file') await sendFileList(turn, option.optFileId);
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
      if (option.optIntegrationId) await handToIntegration(turn, option.optIntegrationId);
      else await finish(turn);
      return;
    default: {
      // text without options, or file: the list's message and files after the option's own message
      if (option.queueType === 'file') await sendFileList(turn, option.optFileId);
      await finish(turn);
      const queue = turn.ticket.queueId ? await queueOf(turn, turn.ticket.queueId) : undefined;
      if (queue) await afterLanding(turn, queue);
    }
  }
}

/** The queue stage: the contact picks a queue by number; anything else gets the menu again. */
export async function queueTurn(turn: Turn, body: string, firstTurn: boolean): Promise<void> {
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
export async function optionTurn(turn: Turn, body: string): Promise<void> {
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
