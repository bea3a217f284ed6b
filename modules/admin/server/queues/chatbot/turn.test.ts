import type { ConnectionProfile } from '@balcao/plugin-sdk/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultSchedules, type ServiceHours } from '../../../shared/queues';
import {
  acme,
  contact,
  inbound,
  inbox,
  knex,
  newNumber,
  queue,
  sent,
  settings,
  statementsDuring,
  useChatbotApp,
} from '../testing/chatbot';
import { LGPD_MAX_ASKS, LGPD_TEXTS, localDate, onCollectiveVacation } from './conversation-start';

/** The chatbot's turn: what it reads and writes, what it leaves alone, and its order — vacation, consent, hours. */
useChatbotApp();

describe('the turn', () => {
  it('settles a new ticket that arrives in a queue without options in two statements: one read, one write', async () => {
    const sales = await queue('Vendas', { greetingMessage: '' });
    // the channels plugin reads a connection's profile once and keeps it: read it before counting the bot's statements
    await contact().say('Oi');
    const { value: result, statements: botStatements } = await statementsDuring(
      /chatbot_tickets|company_service_hours|"queues"|"chatbots"/,
      () => inbox.receive({ ...inbound(newNumber(), 'Oi'), queueId: sales }),
    );
    // the ticket with the hours, its queue and the queue's options; then the state, written once as done
    expect(botStatements).toHaveLength(2);
    expect(botStatements[1]).toMatch(/^insert into "chatbot_tickets"/);
    expect(await knex()('chatbotTickets').where({ ticketId: result.ticketId }).first()).toMatchObject({
      stage: 'done',
      queueId: sales,
    });
    expect(await knex()('tickets').where({ id: result.ticketId }).first()).toMatchObject({ status: 'pending', queueId: sales });
  });

  it('gathers the turns of new conversations arriving at once into few statements, each settled as alone', async () => {
    const sales = await queue('Vendas', { greetingMessage: '' });
    const { value: results, statements: botStatements } = await statementsDuring(/chatbot_tickets/, () =>
      Promise.all(Array.from({ length: 12 }, () => inbox.receive({ ...inbound(newNumber(), 'Oi'), queueId: sales }))),
    );
    // alone, each would read its ticket and write its state: 24 statements
    expect(botStatements.length).toBeLessThan(24);
    const states = await knex()('chatbotTickets').whereIn(
      'ticketId',
      results.map((result) => result.ticketId),
    );
    expect(states).toHaveLength(12);
    expect(new Set(states.map((state: { stage: string }) => state.stage))).toEqual(new Set(['done']));
  });

  it('reaches the channel through the driver like any message', async () => {
    await queue('Vendas');
    await queue('Suporte');
    sent.length = 0;
    await contact().say('Bom dia');
    const deadline = Date.now() + 5_000;
    while (sent.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas']);
  });

  it('stays out of conversations an integration or a flow answers', async () => {
    await queue('Vendas');
    await queue('Suporte');
    const menu = 'Olá! Escolha um setor:\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas';
    // handed to an integration (the ticket header's toggle on): the bot says nothing more
    const handed = contact();
    expect(await handed.say('Oi')).toEqual([menu]);
    await knex()('tickets').where({ id: handed.ticketId }).update({ useIntegration: true });
    expect(await handed.say('1')).toEqual([]);

    // a connection whose new conversations go to a welcome flow: no greeting, no menu, no state — the flow speaks
    const connection = await flowConnection();
    sent.length = 0;
    const result = await inbox.receive({ ...inbound(newNumber(), 'Oi'), whatsappId: connection, channel: 'webchat' });
    expect(await knex()('chatbotTickets').where({ ticketId: result.ticketId }).first()).toBeUndefined();
    expect(await flowSpoke(result.ticketId)).toEqual(['Bem-vindo ao fluxo.']);
  });

  it('answers a returning contact on a connection with only a welcome flow, which is not theirs', async () => {
    await queue('Vendas');
    await queue('Suporte');
    const connection = await flowConnection();
    const returning = contact();
    await returning.say('Oi');
    await knex()('tickets').where({ id: returning.ticketId }).update({ status: 'closed' });
    const number = (
      await knex()('contacts')
        .where({ id: (await returning.ticket()).contactId })
        .first('number')
    ).number;
    const result = await inbox.receive({ ...inbound(number, 'Voltei'), whatsappId: connection, channel: 'webchat' });
    expect(await knex()('messages').where({ ticketId: result.ticketId, fromMe: true }).pluck('body')).toEqual([
      'Olá! Escolha um setor:\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas',
    ]);
    expect(await knex()('flowRuns').where({ ticketId: result.ticketId }).first()).toBeUndefined();
  });

  it('asks a new contact for consent before a welcome flow takes the conversation', async () => {
    await settings('enableLGPD', 'enabled');
    await settings('lgpdConsent', 'enabled');
    await settings('lgpdMessage', 'Podemos tratar os seus dados?');
    const connection = await flowConnection();
    const result = await inbox.receive({ ...inbound(newNumber(), 'Oi'), whatsappId: connection, channel: 'webchat' });
    expect(await knex()('messages').where({ ticketId: result.ticketId, fromMe: true }).pluck('body')).toEqual([
      'Podemos tratar os seus dados?\n\n*[ 1 ]* - Aceito\n*[ 2 ]* - Não aceito',
    ]);
    expect(await knex()('tickets').where({ id: result.ticketId }).first('status')).toEqual({ status: 'lgpd' });
    expect(await knex()('flowRuns').where({ ticketId: result.ticketId }).first()).toBeUndefined();
  });

  it('starts the welcome flow once the new contact accepts, and the bot stays out of it', async () => {
    await queue('Vendas');
    await queue('Suporte');
    await settings('enableLGPD', 'enabled');
    await settings('lgpdConsent', 'enabled');
    await settings('lgpdMessage', 'Podemos tratar os seus dados?');
    const connection = await flowConnection();
    const number = newNumber();
    const first = await inbox.receive({ ...inbound(number, 'Oi'), whatsappId: connection, channel: 'webchat' });
    const accepted = await inbox.receive({ ...inbound(number, '1'), whatsappId: connection, channel: 'webchat' });
    expect(accepted.ticketId).toBe(first.ticketId);
    const bodies = await flowSpoke(first.ticketId, 2);
    // the question, then the flow: no greeting, no menu of queues
    expect(bodies).toEqual(['Podemos tratar os seus dados?\n\n*[ 1 ]* - Aceito\n*[ 2 ]* - Não aceito', 'Bem-vindo ao fluxo.']);
    // the run settles just after its last send
    await expect
      .poll(async () => (await knex()('flowRuns').where({ ticketId: first.ticketId }).first('status'))?.status)
      .toBe('done');
    expect(await knex()('chatbotTickets').where({ ticketId: first.ticketId }).first()).toBeUndefined();
    expect(await knex()('tickets').where({ id: first.ticketId }).first('status')).toEqual({ status: 'pending' });
    // a settled run sends nothing again, and the bot does not come in on a late duplicate of the flow's job
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await knex()('messages').where({ ticketId: first.ticketId, fromMe: true }).pluck('body')).toEqual(bodies);
  });

  it('tells only the collective vacation on a connection with a welcome flow: the business is closed', async () => {
    await queue('Vendas');
    const connection = await flowConnection();
    const today = localDate(new Date());
    await knex()('whatsapps').where({ id: connection }).update({
      collectiveVacationMessage: 'Estamos em férias coletivas.',
      collectiveVacationStart: today,
      collectiveVacationEnd: today,
    });
    const result = await inbox.receive({ ...inbound(newNumber(), 'Oi'), whatsappId: connection, channel: 'webchat' });
    expect(await flowSpoke(result.ticketId)).toEqual(['Estamos em férias coletivas.']);
    // the flow's job has had its turn by now: no run, nothing more said
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await knex()('flowRuns').where({ ticketId: result.ticketId }).first()).toBeUndefined();
    expect(await knex()('messages').where({ ticketId: result.ticketId, fromMe: true }).pluck('body')).toEqual([
      'Estamos em férias coletivas.',
    ]);
    expect(await knex()('tickets').where({ id: result.ticketId }).first('useIntegration')).toEqual({ useIntegration: false });
  });
});

/** A webchat connection of Acme whose new contacts go to an active welcome flow that says one thing. */
async function flowConnection(): Promise<number> {
  const document = {
    nodes: [
      { id: '1', type: 'start', position: { x: 0, y: 0 }, data: {} },
      { id: 'oi', type: 'message', position: { x: 0, y: 0 }, data: { label: 'Bem-vindo ao fluxo.' } },
    ],
    connections: [{ source: '1', target: 'oi' }],
  };
  const [flow] = await knex()('flowBuilders')
    .insert({ companyId: acme, name: 'Boas-vindas do bot', flow: JSON.stringify(document) })
    .returning('id');
  const [connection] = await knex()('whatsapps')
    .insert({
      companyId: acme,
      name: 'Com fluxo',
      channel: 'webchat',
      status: 'CONNECTED',
      token: `bot-flow-${flow.id}`,
      flowIdWelcome: flow.id,
    })
    .returning('id');
  return Number(connection.id);
}

/** The messages sent on a ticket once `count` are there (a flow's job runs just after the turn). */
async function flowSpoke(ticketId: number, count = 1): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const bodies: string[] = await knex()('messages').where({ ticketId, fromMe: true }).orderBy('id').pluck('body');
    if (bodies.length >= count || Date.now() > deadline) return bodies;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('leaving alone', () => {
  it('leaves groups, contacts with the bot disabled and messages from the phone alone', async () => {
    await queue('Vendas');
    await queue('Suporte');
    const group = contact();
    expect(await group.say('Oi grupo', { group: { identifiers: [`${newNumber()}-1@g.us`], name: 'Família' } })).toEqual([]);
    const muted = contact({ disableBot: true });
    await muted.say('Oi');
    // the flag is set after the first message: the second one finds it
    const before = await muted.say('Oi de novo');
    expect(before).toEqual([]);
    const phone = contact();
    expect(await phone.say('Mensagem do celular', { fromMe: true })).toEqual([]);
  });
});

describe('service hours', () => {
  const closedAllWeek: ServiceHours[] = defaultSchedules().map((day) => ({
    ...day,
    startTimeA: '',
    endTimeA: '',
    startTimeB: '',
    endTimeB: '',
  }));
  const openAllDay: ServiceHours[] = defaultSchedules().map((day) => ({
    ...day,
    startTimeA: '00:00',
    endTimeA: '23:59',
    startTimeB: '',
    endTimeB: '',
  }));

  it('scheduleType company: out of hours the company message goes once, and no menu', async () => {
    await settings('scheduleType', 'company');
    await knex()('companyServiceHours')
      .where({ companyId: acme })
      .update({ schedules: JSON.stringify(closedAllWeek), outOfHoursMessage: 'Estamos fechados.' });
    await queue('Vendas');
    await queue('Suporte');
    const leo = contact();
    expect(await leo.say('Oi')).toEqual(['Estamos fechados.']);
    expect(await leo.say('Alô?')).toEqual([]);
    await knex()('companyServiceHours')
      .where({ companyId: acme })
      .update({ schedules: JSON.stringify(openAllDay) });
    expect(await contact().say('Oi')).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas']);
  });

  it('scheduleType queue: a closed queue answers with its out-of-hours message and keeps the ticket', async () => {
    await settings('scheduleType', 'queue');
    const closed = await queue(
      'Noturna',
      { orderQueue: 1, schedules: JSON.stringify(closedAllWeek), outOfHoursMessage: 'A fila abre às 8h.' },
      [
        { name: 'Opção', greetingMessage: 'não chega aqui' },
        { name: 'Outra', greetingMessage: 'nem aqui' },
      ],
    );
    await queue('Diurna', { orderQueue: 2, schedules: JSON.stringify(openAllDay), outOfHoursMessage: 'fechada' });
    const ivo = contact();
    await ivo.say('Oi');
    expect(await ivo.say('1')).toEqual(['A fila abre às 8h.']);
    expect(await ivo.ticket()).toMatchObject({ queueId: closed, status: 'pending', isBot: false });
    const ada = contact();
    await ada.say('Oi');
    expect(await ada.say('2')).toEqual(['Fila Diurna']);
  });

  it('scheduleType connection without a connection profile: the bot works as without hours', async () => {
    await settings('scheduleType', 'connection');
    await knex()('companyServiceHours')
      .where({ companyId: acme })
      .update({ schedules: JSON.stringify(closedAllWeek), outOfHoursMessage: 'Fechado' });
    await queue('Vendas', { schedules: JSON.stringify(closedAllWeek), outOfHoursMessage: 'Fechada' });
    await queue('Suporte');
    expect(await contact().say('Oi')).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas']);
  });
});

describe('LGPD consent (enableLGPD and lgpdConsent)', () => {
  const question = 'Podemos tratar os seus dados?\n\nhttps://acme.test/privacidade\n\n*[ 1 ]* - Aceito\n*[ 2 ]* - Não aceito';
  const menu = 'Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte';
  const logsOf = (ticketId: number) => knex()('ticketLogs').where({ ticketId }).orderBy('id').pluck('type');
  const acceptedAt = async (ticketId: number) => {
    const ticket = await knex()('tickets').where({ id: ticketId }).first('contactId');
    return (await knex()('contacts').where({ id: ticket.contactId }).first('lgpdAcceptedAt')).lgpdAcceptedAt;
  };

  beforeEach(async () => {
    await settings('enableLGPD', 'enabled');
    await settings('lgpdConsent', 'enabled');
    await settings('lgpdMessage', 'Podemos tratar os seus dados?');
    await settings('lgpdLink', 'https://acme.test/privacidade');
    await queue('Vendas', { orderQueue: 1 });
    await queue('Suporte', { orderQueue: 2 });
  });

  it('asks a new contact before any menu; accepting records it, returns the ticket to pending and starts the bot at once', async () => {
    const lia = contact();
    expect(await lia.say('Oi')).toEqual([question]);
    expect(await lia.ticket()).toMatchObject({ status: 'lgpd', userId: null, isBot: true });
    expect(await acceptedAt(lia.ticketId)).toBeNull();
    // the answer is no menu choice: the bot greets as on a new ticket
    expect(await lia.say('1')).toEqual([menu]);
    expect(await lia.ticket()).toMatchObject({ status: 'pending', queueId: null, isBot: true, amountUsedBotQueues: 1 });
    expect(await acceptedAt(lia.ticketId)).toBeInstanceOf(Date);
    expect(await logsOf(lia.ticketId)).toEqual(['create', 'lgpd', 'lgpdAccepted']);
    expect(await lia.say('2')).toEqual(['Fila Suporte']);
    // once accepted, the contact's next conversation starts with the menu
    await knex()('tickets').where({ id: lia.ticketId }).update({ status: 'closed' });
    expect(await lia.say('Oi de novo')).toEqual([menu]);
  });

  it('a refusal gets a short reply and closes the ticket; the next conversation asks again', async () => {
    const rui = contact();
    expect(await rui.say('Oi')).toEqual([question]);
    expect(await rui.say(' 2 ')).toEqual([LGPD_TEXTS.refused]);
    expect(await rui.ticket()).toMatchObject({ status: 'closed', isBot: false });
    expect(await logsOf(rui.ticketId)).toEqual(['create', 'lgpd', 'lgpdRefused', 'closed']);
    expect(await acceptedAt(rui.ticketId)).toBeNull();
    const first = rui.ticketId;
    expect(await rui.say('Oi')).toEqual([question]);
    expect(rui.ticketId).not.toBe(first);
  });

  it(`repeats the question on other answers, ${LGPD_MAX_ASKS} times in all, then leaves the ticket in lgpd for an agent`, async () => {
    // without a message of the company's, the product's own text (and no link without lgpdLink)
    await settings('lgpdMessage', '');
    await settings('lgpdLink', '');
    const own = `${LGPD_TEXTS.message}\n\n*[ 1 ]* - Aceito\n*[ 2 ]* - Não aceito`;
    const ana = contact();
    expect(await ana.say('Oi')).toEqual([own]);
    expect(await ana.say('o que é isso?')).toEqual([own]);
    expect(await ana.say('3')).toEqual([own]);
    expect(await ana.say('?')).toEqual([]);
    expect(await ana.ticket()).toMatchObject({ status: 'lgpd', isBot: false });
    expect(await logsOf(ana.ticketId)).toEqual(['create', 'lgpd']);
    // an acceptance still counts
    expect(await ana.say('1')).toEqual([menu]);
    expect(await ana.ticket()).toMatchObject({ status: 'pending' });
  });

  it('is not asked when lgpdConsent is off, nor of a contact who accepted already', async () => {
    await settings('lgpdConsent', 'disabled');
    expect(await contact().say('Oi')).toEqual([menu]);
    await settings('lgpdConsent', 'enabled');
    const eva = contact();
    await eva.say('Oi');
    await eva.say('1');
    await knex()('tickets').where({ id: eva.ticketId }).update({ status: 'closed' });
    expect(await eva.say('Voltei')).toEqual([menu]);
  });
});

describe('collective vacation window', () => {
  const profile = (fields: Partial<ConnectionProfile>) =>
    ({
      collectiveVacationMessage: 'Estamos em férias coletivas até 31/12.',
      collectiveVacationStart: '2026-12-20',
      collectiveVacationEnd: '2026-12-31',
      ...fields,
    }) as ConnectionProfile;

  it("includes both days, in the server's local date", () => {
    const vacation = profile({});
    expect(onCollectiveVacation(vacation, new Date(2026, 11, 19, 23, 59, 59))).toBe(false);
    expect(onCollectiveVacation(vacation, new Date(2026, 11, 20, 0, 0, 0))).toBe(true);
    expect(onCollectiveVacation(vacation, new Date(2026, 11, 31, 23, 59, 59))).toBe(true);
    expect(onCollectiveVacation(vacation, new Date(2027, 0, 1, 0, 0, 0))).toBe(false);
    expect(onCollectiveVacation(profile({ collectiveVacationEnd: '2026-12-20' }), new Date(2026, 11, 20, 12))).toBe(true);
  });

  it('needs both dates and a message; without a connection there is none', () => {
    const inside = new Date(2026, 11, 25, 12);
    expect(onCollectiveVacation(profile({ collectiveVacationEnd: null }), inside)).toBe(false);
    expect(onCollectiveVacation(profile({ collectiveVacationStart: null }), inside)).toBe(false);
    expect(onCollectiveVacation(profile({ collectiveVacationMessage: '  ' }), inside)).toBe(false);
    expect(onCollectiveVacation(null, inside)).toBe(false);
  });
});
