import {
  type ChannelDriver,
  DEFAULT_CUSTOMER_TEXTS,
  type InboundMessage,
  type InboxService,
  type PluginContext,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelsKit, type KitConnectionFields, type KitUser } from '../testing/kit';
import { parseRating, RATING_INSTRUCTION, RATING_INVALID } from './rating';
import { DEFAULT_RATING_EXPIRY_MINUTES, fireTimer, sweepTimers, type TimerKind } from './timers';

/**
 * How conversations go on and end on every channel (docs/channels/lifecycle.md), turn by turn: a
 * contact writes through the inbox's channel entry, an agent answers through the API, time passes (the
 * ticket's messages, logs and close are moved back), and the timers fire as their jobs and the sweep do.
 * The channel is one of the test's own, with a recording driver: the behaviour is every channel's.
 */
const CHANNEL = 'lifecycle';

let t: TestApp;
let kit: ChannelsKit;
let ctx: PluginContext;
let inbox: InboxService;
let companyId: number;
let admin: KitUser;
let queueA: number;
let queueB: number;
const delivered: string[] = [];

const recordingDriver: ChannelDriver = {
  async send(_target, message) {
    delivered.push(message.body);
    return { channelMessageId: `out-${delivered.length}-${Date.now()}` };
  },
};

beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
  ctx = kit.ctx;
  inbox = ctx.services.use('inbox');
  ({ companyId, admin } = await kit.companyWithPlan());
  queueA = await kit.queue(companyId, 'Vendas lifecycle');
  queueB = await kit.queue(companyId, 'Suporte lifecycle');
  inbox.registerDriver(CHANNEL, recordingDriver);
});
afterAll(async () => {
  await t?.close();
});

let sequence = 0;
const newNumber = () => {
  sequence += 1;
  return `5521${String(Date.now() % 1e6).padStart(6, '0')}${String(sequence).padStart(3, '0')}`;
};

function inbound(connectionId: number, number: string, body: string, fromMe = false): InboundMessage {
  sequence += 1;
  return {
    companyId,
    whatsappId: connectionId,
    channel: CHANNEL,
    contact: { identifiers: [`${CHANNEL}:${number}`], number, name: `Cliente ${number.slice(-3)}` },
    message: { id: `in-${number}-${sequence}`, body, fromMe },
    queueId: queueA,
  };
}

interface Conversation {
  whatsappId: number;
  number: string;
  ticketId: number;
}

/** A connection of the test's channel with `fields`, and a contact's first message on it (a pending ticket in queue A). */
async function conversation(fields: KitConnectionFields = {}): Promise<Conversation> {
  const connectionId = await kit.connection(companyId, {
    channel: CHANNEL,
    status: 'CONNECTED',
    queueIds: [queueA, queueB],
    ...fields,
  });
  const number = newNumber();
  const { ticketId } = await inbox.receive(inbound(connectionId, number, 'Olá, preciso de ajuda'));
  return { whatsappId: connectionId, number, ticketId };
}

const contactWrites = (c: Conversation, body: string) => inbox.receive(inbound(c.whatsappId, c.number, body));

async function putTicket(ticketId: number, payload: Record<string, unknown>) {
  const res = await t.inject({ method: 'PUT', url: `/api/tickets/${ticketId}`, token: admin.token, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { status: string };
}

const accept = (c: Conversation) => putTicket(c.ticketId, { status: 'open', userId: admin.id, queueId: queueA });
const resolve = (c: Conversation, sendFarewellMessage = true) => putTicket(c.ticketId, { status: 'closed', sendFarewellMessage });

async function agentWrites(c: Conversation, body: string): Promise<void> {
  const res = await t.inject({ method: 'POST', url: `/api/messages/${c.ticketId}`, token: admin.token, payload: { body } });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** `minutes` pass for the ticket: its messages, log entries, start and close move back that much. */
async function elapse(c: Conversation, minutes: number): Promise<void> {
  const shift = kit.knex.raw(`? * interval '1 minute'`, [minutes]);
  await kit
    .knex('messages')
    .where({ companyId, ticketId: c.ticketId })
    .update({ createdAt: kit.knex.raw('created_at - ?', [shift]) });
  await kit
    .knex('ticketLogs')
    .where({ companyId, ticketId: c.ticketId })
    .update({ createdAt: kit.knex.raw('created_at - ?', [shift]) });
  await kit
    .knex('tickets')
    .where({ companyId, id: c.ticketId })
    .update({
      createdAt: kit.knex.raw('created_at - ?', [shift]),
      closedAt: kit.knex.raw('closed_at - ?', [shift]),
    });
}

const fire = (c: Conversation, kind: TimerKind) => runInTenant({ companyId }, () => fireTimer(ctx, companyId, c.ticketId, kind));
const ticketOf = (c: Conversation) => kit.knex('tickets').where({ companyId, id: c.ticketId }).first();
const logsOf = (c: Conversation) =>
  kit.knex('ticketLogs').where({ companyId, ticketId: c.ticketId }).orderBy('id').select('type', 'userId', 'queueId');
/** The company's messages on the ticket, oldest first: body and the automation that sent it. */
async function sentOn(c: Conversation): Promise<Array<{ body: string; automation: string | null }>> {
  const rows = await kit
    .knex('messages')
    .where({ companyId, ticketId: c.ticketId, fromMe: true })
    .orderBy('id')
    .select('body', 'dataJson');
  return rows.map((row) => ({
    body: row.body,
    automation: (row.dataJson as { automation?: string } | null)?.automation ?? null,
  }));
}

describe('farewell on close', () => {
  it("sends the connection's complationMessage (variables filled) when resolved with a farewell", async () => {
    const c = await conversation({ name: 'Loja Centro', complationMessage: 'Até logo, {{firstName}}! {{connection}}' });
    await accept(c);
    await resolve(c);
    expect((await ticketOf(c)).status).toBe('closed');
    const last = (await sentOn(c)).at(-1);
    expect(last).toEqual({ body: 'Até logo, Cliente! Loja Centro', automation: 'farewell' });
  });

  it("prefers the agent's own farewellMessage, and sends nothing when resolved without a farewell", async () => {
    const c = await conversation({ complationMessage: 'Despedida da conexão' });
    await kit.knex('users').where({ id: admin.id }).update({ farewellMessage: 'Um abraço do agente' });
    try {
      await accept(c);
      await resolve(c);
      expect((await sentOn(c)).map((m) => m.body)).toEqual(['Um abraço do agente']);
    } finally {
      await kit.knex('users').where({ id: admin.id }).update({ farewellMessage: null });
    }
    const quiet = await conversation({ complationMessage: 'Despedida da conexão' });
    await accept(quiet);
    await resolve(quiet, false);
    expect(await sentOn(quiet)).toEqual([]);
  });
});

describe('rating (NPS 0–10)', () => {
  const rated = {
    ratingMessage: 'Como foi o atendimento?',
    expiresTicketNPS: 5,
    maxUseBotQueuesNPS: 2,
    complationMessage: 'Obrigado!',
  };
  beforeAll(async () => {
    await ctx.settings.set(companyId, 'userRating', 'enabled');
  });
  afterAll(async () => {
    await ctx.settings.set(companyId, 'userRating', 'disabled');
  });

  it('asks instead of closing; a valid answer stores the rate for the agent and closes with the farewell', async () => {
    const c = await conversation(rated);
    await accept(c);
    const answer = await resolve(c);
    expect(answer.status).toBe('nps');
    expect((await sentOn(c)).at(-1)).toEqual({ body: `Como foi o atendimento?\n\n${RATING_INSTRUCTION}`, automation: 'rating' });

    await contactWrites(c, ' 9 ');
    expect(await kit.knex('ticketRatings').where({ companyId, ticketId: c.ticketId }).select('rate', 'userId')).toEqual([
      { rate: 9, userId: admin.id },
    ]);
    const ticket = await ticketOf(c);
    expect(ticket).toMatchObject({ status: 'closed', amountUsedBotQueues: 0 });
    expect(ticket.closedAt).not.toBeNull();
    expect((await sentOn(c)).at(-1)).toEqual({ body: 'Obrigado!', automation: 'farewell' });
    // resolved by the agent (the question: log nps), then rated and closed by the rating flow
    expect((await logsOf(c)).slice(-3)).toEqual([
      { type: 'nps', userId: admin.id, queueId: expect.any(Number) },
      { type: 'rated', userId: null, queueId: expect.any(Number) },
      { type: 'closed', userId: null, queueId: expect.any(Number) },
    ]);

    // the ticket shows its rating; resolved again later, it is not asked twice
    const shown = await t.inject({ method: 'GET', url: `/api/tickets/u/${ticket.uuid}`, token: admin.token });
    expect(shown.json().userRating).toEqual({ rate: 9 });
    await putTicket(c.ticketId, { status: 'open' });
    expect((await resolve(c, false)).status).toBe('closed');
  });

  it('asks again after invalid answers up to maxUseBotQueuesNPS times, then closes without a rating', async () => {
    const c = await conversation(rated);
    await accept(c);
    await resolve(c);
    await contactWrites(c, 'foi ótimo');
    expect((await ticketOf(c)).amountUsedBotQueues).toBe(1);
    await contactWrites(c, '11');
    expect((await ticketOf(c)).amountUsedBotQueues).toBe(2);
    expect((await sentOn(c)).filter((m) => m.body === RATING_INVALID)).toHaveLength(2);
    await contactWrites(c, 'dez');
    expect((await ticketOf(c)).status).toBe('closed');
    expect(await kit.knex('ticketRatings').where({ companyId, ticketId: c.ticketId })).toEqual([]);
    expect((await sentOn(c)).filter((m) => m.body === RATING_INVALID)).toHaveLength(2);
    expect((await sentOn(c)).at(-1)?.body).toBe('Obrigado!');
  });

  it('closes silently when nobody answers within expiresTicketNPS minutes; the early or stale timer does nothing', async () => {
    const c = await conversation(rated);
    await accept(c);
    await resolve(c);
    expect(await fire(c, 'rating')).toBe(false);
    await elapse(c, 6);
    const sentBefore = (await sentOn(c)).length;
    expect(await fire(c, 'rating')).toBe(true);
    expect((await ticketOf(c)).status).toBe('closed');
    expect(await fire(c, 'rating')).toBe(false);
    expect(await sentOn(c)).toHaveLength(sentBefore);
    expect(await kit.knex('ticketRatings').where({ companyId, ticketId: c.ticketId })).toEqual([]);
  });

  it('works with defaults when the connection has no ratingMessage, expiresTicketNPS or farewell', async () => {
    const c = await conversation({ ratingMessage: '', expiresTicketNPS: 0, complationMessage: '' });
    await accept(c);
    expect((await resolve(c)).status).toBe('nps');
    const question = `${DEFAULT_CUSTOMER_TEXTS.pt.rating}\n\n${RATING_INSTRUCTION}`;
    expect((await sentOn(c)).at(-1)).toEqual({ body: question, automation: 'rating' });
    // unanswered, it closes after the default wait
    await elapse(c, DEFAULT_RATING_EXPIRY_MINUTES - 1);
    expect(await fire(c, 'rating')).toBe(false);
    await elapse(c, 2);
    expect(await fire(c, 'rating')).toBe(true);
    expect((await ticketOf(c)).status).toBe('closed');
    // answered, it closes with the default farewell
    const answered = await conversation({ ratingMessage: '', complationMessage: '' });
    await accept(answered);
    await resolve(answered);
    await contactWrites(answered, '10');
    expect((await sentOn(answered)).at(-1)).toEqual({ body: DEFAULT_CUSTOMER_TEXTS.pt.farewell, automation: 'farewell' });
  });

  it('closes directly when the company has ratings off', async () => {
    await ctx.settings.set(companyId, 'userRating', 'disabled');
    try {
      const c = await conversation(rated);
      await accept(c);
      expect((await resolve(c)).status).toBe('closed');
    } finally {
      await ctx.settings.set(companyId, 'userRating', 'enabled');
    }
  });
});

describe('arming', () => {
  /** Whether the timer job of this id is pending (enqueueing the same id again is then refused). */
  const pending = async (ticketId: number, kind: TimerKind, anchor: string | number) =>
    (await ctx.jobs.enqueue(
      'lifecycle-timer',
      { ticketId, kind },
      { companyId, delayMs: 3_600_000, jobId: `${kind}:${ticketId}:${anchor}` },
    )) === null;

  it("arms the inactivity and expiry timers on the company's messages and not on the reminder", async () => {
    const c = await conversation({ timeInactiveMessage: 10, inactiveMessage: 'Oi?', expiresTicket: 30, whenExpiresTicket: 0 });
    await accept(c);
    await agentWrites(c, 'Bom dia!');
    const [reply] = await kit
      .knex('messages')
      .where({ companyId, ticketId: c.ticketId, fromMe: true })
      .orderBy('id', 'desc')
      .pluck('id');
    expect(await pending(c.ticketId, 'inactivity', reply)).toBe(true);
    expect(await pending(c.ticketId, 'expiry', reply)).toBe(true);
    await elapse(c, 11);
    await fire(c, 'inactivity');
    const [reminder] = await kit
      .knex('messages')
      .where({ companyId, ticketId: c.ticketId, fromMe: true })
      .orderBy('id', 'desc')
      .pluck('id');
    expect(reminder).not.toBe(reply);
    expect(await pending(c.ticketId, 'inactivity', reminder)).toBe(false);
  });

  it("arms expiry on the contact's messages with whenExpiresTicket 1, and redirect on a new pending ticket", async () => {
    const c = await conversation({ expiresTicket: 30, whenExpiresTicket: 1, timeSendQueue: 5, sendIdQueue: queueB });
    const [first] = await kit.knex('messages').where({ companyId, ticketId: c.ticketId }).pluck('id');
    expect(await pending(c.ticketId, 'expiry', first)).toBe(true);
    // the redirect's job is named after the moment it was armed: the sweep's query proves it is due later
    await elapse(c, 6);
    expect(await fire(c, 'redirect')).toBe(true);
  });
});

describe('rating answers', () => {
  it('reads a whole number from 0 to 10, alone', () => {
    expect([' 0', '10', '7.', '9!', ' 5 '].map(parseRating)).toEqual([0, 10, 7, 9, 5]);
    expect(['11', '-1', '7,5', 'nota 8', '', '010a'].map(parseRating)).toEqual([null, null, null, null, null, null]);
  });
});

describe('inactivity reminder', () => {
  const inactive = { timeInactiveMessage: 10, inactiveMessage: 'Ainda está aí, {{firstName}}?' };

  it("reminds once when the company's last message goes unanswered for timeInactiveMessage minutes", async () => {
    const c = await conversation(inactive);
    await accept(c);
    await agentWrites(c, 'Em que posso ajudar?');
    expect(await fire(c, 'inactivity')).toBe(false);
    await elapse(c, 11);
    expect(await fire(c, 'inactivity')).toBe(true);
    expect((await sentOn(c)).at(-1)).toEqual({ body: 'Ainda está aí, Cliente?', automation: 'inactivity' });
    expect((await logsOf(c)).at(-1)).toMatchObject({ type: 'inactive', userId: null });
    // and it reaches the contact through the channel's driver, like any message
    for (let attempt = 0; attempt < 200 && !delivered.includes('Ainda está aí, Cliente?'); attempt += 1) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(delivered).toContain('Ainda está aí, Cliente?');
    // the reminder doesn't restart its own clock
    await elapse(c, 11);
    expect(await fire(c, 'inactivity')).toBe(false);
    // the contact answered: nothing to remind
    await contactWrites(c, 'Estou sim');
    await elapse(c, 11);
    expect(await fire(c, 'inactivity')).toBe(false);
    expect((await sentOn(c)).filter((m) => m.automation === 'inactivity')).toHaveLength(1);
  });

  it('fires once when its job is enqueued twice and when the job, another job and the sweep race', async () => {
    const c = await conversation(inactive);
    await accept(c);
    await agentWrites(c, 'Pode me passar o pedido?');
    await elapse(c, 11);
    const first = await ctx.jobs.enqueue(
      'lifecycle-timer',
      { ticketId: c.ticketId, kind: 'inactivity' },
      { companyId, jobId: `test:${c.ticketId}` },
    );
    const second = await ctx.jobs.enqueue(
      'lifecycle-timer',
      { ticketId: c.ticketId, kind: 'inactivity' },
      { companyId, jobId: `test:${c.ticketId}` },
    );
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    const reminders = async () => (await sentOn(c)).filter((m) => m.automation === 'inactivity').length;
    for (let attempt = 0; attempt < 200 && (await reminders()) === 0; attempt += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await reminders()).toBe(1);

    const racing = await conversation(inactive);
    await accept(racing);
    await agentWrites(racing, 'Alguma dúvida?');
    await elapse(racing, 11);
    const results = await Promise.all([fire(racing, 'inactivity'), fire(racing, 'inactivity'), sweepTimers(ctx)]);
    expect(results.slice(0, 2).filter(Boolean).length).toBeLessThanOrEqual(1);
    expect((await sentOn(racing)).filter((m) => m.automation === 'inactivity')).toHaveLength(1);
    expect(await reminders()).toBe(1);
  });
});

describe('expiry', () => {
  it('whenExpiresTicket 0: closes with expiresInactiveMessage when the company spoke last N minutes ago', async () => {
    const c = await conversation({
      expiresTicket: 30,
      whenExpiresTicket: 0,
      expiresInactiveMessage: 'Encerramos por falta de resposta.',
    });
    await accept(c);
    await agentWrites(c, 'Conseguiu verificar?');
    await elapse(c, 20);
    expect(await fire(c, 'expiry')).toBe(false);
    await elapse(c, 11);
    expect(await fire(c, 'expiry')).toBe(true);
    expect((await ticketOf(c)).status).toBe('closed');
    expect((await sentOn(c)).at(-1)).toEqual({ body: 'Encerramos por falta de resposta.', automation: 'expiry' });
    expect((await logsOf(c)).at(-1)).toMatchObject({ type: 'expired', userId: null });
    expect(await fire(c, 'expiry')).toBe(false);
  });

  it('whenExpiresTicket 0 leaves a ticket whose contact spoke last; 1 closes it too', async () => {
    const waiting = await conversation({ expiresTicket: 30, whenExpiresTicket: 0 });
    await elapse(waiting, 31);
    expect(await fire(waiting, 'expiry')).toBe(false);
    expect((await ticketOf(waiting)).status).toBe('pending');

    const always = await conversation({ expiresTicket: 30, whenExpiresTicket: 1 });
    await elapse(always, 31);
    expect(await fire(always, 'expiry')).toBe(true);
    expect((await ticketOf(always)).status).toBe('closed');
    // no expiresInactiveMessage: closed without a message
    expect(await sentOn(always)).toEqual([]);
  });

  it('the sweep closes what no job fired (timers lost with Redis, connections changed later)', async () => {
    const c = await conversation();
    await accept(c);
    await agentWrites(c, 'Aguardo seu retorno.');
    await kit.knex('whatsapps').where({ id: c.whatsappId }).update({ expiresTicket: 15, whenExpiresTicket: 0 });
    await elapse(c, 16);
    await sweepTimers(ctx);
    expect((await ticketOf(c)).status).toBe('closed');
  });
});

describe('redirect', () => {
  it('moves a pending ticket nobody accepted within timeSendQueue minutes to sendIdQueue, once', async () => {
    const c = await conversation({ timeSendQueue: 5, sendIdQueue: null });
    await kit.knex('whatsapps').where({ id: c.whatsappId }).update({ sendIdQueue: queueB });
    expect(await fire(c, 'redirect')).toBe(false);
    await elapse(c, 6);
    expect(await fire(c, 'redirect')).toBe(true);
    expect(await ticketOf(c)).toMatchObject({ status: 'pending', queueId: queueB, userId: null });
    expect((await logsOf(c)).at(-1)).toEqual({ type: 'redirect', userId: null, queueId: queueB });
    await elapse(c, 6);
    expect(await fire(c, 'redirect')).toBe(false);
  });

  it('leaves a ticket an agent accepted (a stale timer does nothing)', async () => {
    const c = await conversation({ timeSendQueue: 5, sendIdQueue: null });
    await kit.knex('whatsapps').where({ id: c.whatsappId }).update({ sendIdQueue: queueB });
    await accept(c);
    await elapse(c, 6);
    expect(await fire(c, 'redirect')).toBe(false);
    expect(await ticketOf(c)).toMatchObject({ status: 'open', queueId: queueA });
  });
});

describe('reopen window', () => {
  it('a contact writing within timeCreateNewTicket minutes of the close gets that ticket back, pending in its queue', async () => {
    const c = await conversation({ timeCreateNewTicket: 60 });
    await accept(c);
    await resolve(c, false);
    await elapse(c, 30);
    const again = await contactWrites(c, 'Esqueci de perguntar uma coisa');
    expect(again).toMatchObject({ ticketId: c.ticketId, ticketCreated: false });
    const ticket = await ticketOf(c);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, queueId: queueA, closedAt: null });
    expect((await logsOf(c)).at(-1)).toEqual({ type: 'reopen', userId: null, queueId: queueA });
  });

  it("reopens once for messages arriving together, and a redelivery of the closed ticket's message reopens nothing", async () => {
    const c = await conversation({ timeCreateNewTicket: 60 });
    const first = await kit.knex('messages').where({ companyId, ticketId: c.ticketId }).first('channelMessageId');
    await accept(c);
    await resolve(c, false);
    const redelivered = inbound(c.whatsappId, c.number, 'Olá, preciso de ajuda');
    redelivered.message.id = first.channelMessageId;
    expect(await inbox.receive(redelivered)).toMatchObject({ ticketId: c.ticketId, created: false });
    expect((await ticketOf(c)).status).toBe('closed');

    const results = await Promise.all(Array.from({ length: 5 }, (_, index) => contactWrites(c, `parte ${index}`)));
    expect(new Set(results.map((result) => result.ticketId))).toEqual(new Set([c.ticketId]));
    expect((await logsOf(c)).filter((log) => log.type === 'reopen')).toHaveLength(1);
    expect(await ticketOf(c)).toMatchObject({ status: 'pending', unreadMessages: 5 });
  });

  it('outside the window (or without one) a new ticket begins', async () => {
    const c = await conversation({ timeCreateNewTicket: 60 });
    await accept(c);
    await resolve(c, false);
    await elapse(c, 61);
    const later = await contactWrites(c, 'Oi de novo');
    expect(later.ticketCreated).toBe(true);
    expect(later.ticketId).not.toBe(c.ticketId);

    const none = await conversation();
    await accept(none);
    await resolve(none, false);
    expect((await contactWrites(none, 'Oi')).ticketCreated).toBe(true);
  });
});
