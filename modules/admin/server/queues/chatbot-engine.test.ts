import {
  type ConnectionProfile,
  type InboundMessage,
  type InboxService,
  type PluginContext,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSchedules, type ServiceHours } from '../../shared/queues';
import { LGPD_MAX_ASKS, LGPD_TEXTS, onCollectiveVacation } from './services/conversation-start';
import { looksLikeQuestion, WAITING_TEXTS } from './services/handoff';
import { rotateTicketJob } from './services/rotation';

/**
 * The chatbot at work, turn by turn, with real inbound messages through the inbox's channel contract
 * (`receive`, as a channel driver calls it; a recording driver takes what reaches the channel). The
 * inbox's own fixture driver lives in its folder, which a feature may not import.
 */
let t: TestApp;
let inbox: InboxService;
let acme: number;
let admin: number;
let agent: number;
const WA = 501;
/** What the recording driver was asked to send. */
const sent: string[] = [];
let inboundSeq = 0;

/** An inbound WhatsApp text as a driver reports it. */
function inbound(
  number: string,
  body: string,
  extra: { fromMe?: boolean; group?: InboundMessage['group'] } = {},
): InboundMessage {
  inboundSeq += 1;
  return {
    companyId: acme,
    whatsappId: WA,
    channel: 'whatsapp',
    contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Contato ${number.slice(-4)}` },
    ...(extra.group ? { group: extra.group } : {}),
    message: { id: `bot-test-${Date.now().toString(36)}-${inboundSeq}`, body, fromMe: extra.fromMe === true },
  };
}
let seq = 0;
/** A phone number no other test uses: every test talks to its own contact. */
const newNumber = () => {
  seq += 1;
  return `55219${String(Date.now() % 1e5).padStart(5, '0')}${String(seq).padStart(3, '0')}`;
};

beforeAll(async () => {
  // one "minute" of tempoRoteador lasts 100 ms here, so the rotation's timing is observable
  process.env.ADMIN_ROTATION_MINUTE_MS = '100';
  t = await createTestApp();
  inbox = t.balcao.core.services.use('inbox');
  inbox.registerDriver('whatsapp', {
    async send(_target, message) {
      sent.push(message.body);
      return { channelMessageId: `out-${message.messageId}` };
    },
  });
  acme = t.demo.companies.acme;
  admin = t.demo.users.acmeAdmin;
  agent = t.demo.users.acmeAgent;
});
afterAll(async () => {
  delete process.env.ADMIN_ROTATION_MINUTE_MS;
  await t?.close();
});

const knex = () => t.balcao.core.knex;
const settings = (key: string, value: string) => t.balcao.core.settings.set(acme, key, value);

beforeEach(async () => {
  await knex()('tickets').where({ companyId: acme }).delete();
  await knex()('queues').where({ companyId: acme }).delete();
  await knex()('companyServiceHours').where({ companyId: acme }).delete();
  await knex()('companyServiceHours').insert({ companyId: acme, greetingMessage: 'Olá! Escolha um setor:' });
  for (const [key, value] of Object.entries({
    scheduleType: 'disabled',
    userRandom: 'disabled',
    sendQueuePosition: 'disabled',
    sendGreetingMessageOneQueues: 'enabled',
    enableLGPD: 'disabled',
    lgpdConsent: 'disabled',
    lgpdMessage: '',
    lgpdLink: '',
    chatbotWaitingMessage: '',
  })) {
    await settings(key, value);
  }
});

interface OptionSeed {
  name: string;
  greetingMessage?: string;
  queueType?: string;
  optQueueId?: number;
  optUserId?: number;
  closeTicket?: boolean;
  options?: OptionSeed[];
}

/** A queue of Acme with its options (written as the administration stores them) and members. */
async function queue(
  name: string,
  fields: Record<string, unknown> = {},
  options: OptionSeed[] = [],
  members: number[] = [],
): Promise<number> {
  seq += 1;
  const [row] = await knex()('queues')
    .insert({
      companyId: acme,
      name,
      color: `#${seq.toString(16).padStart(6, '0')}`,
      greetingMessage: `Fila ${name}`,
      ...fields,
    })
    .returning('id');
  const insert = async (list: OptionSeed[], parent: number | null) => {
    for (const [index, option] of list.entries()) {
      const [created] = await knex()('chatbots')
        .insert({
          companyId: acme,
          queueId: row.id,
          chatbotId: parent,
          name: option.name,
          greetingMessage: option.greetingMessage ?? '',
          queueType: option.queueType ?? 'text',
          optQueueId: option.optQueueId ?? null,
          optUserId: option.optUserId ?? null,
          closeTicket: option.closeTicket ?? false,
          orderOption: index,
        })
        .returning('id');
      await insert(option.options ?? [], created.id);
    }
  };
  await insert(options, null);
  for (const userId of members) await knex()('userQueues').insert({ companyId: acme, userId, queueId: row.id });
  return row.id;
}

/** A contact talking to the company: each `say` is one inbound message; answers the bot's replies to it. */
function contact(overrides: { disableBot?: boolean } = {}) {
  const number = newNumber();
  let ticketId = 0;
  let seen = 0;
  return {
    get ticketId() {
      return ticketId;
    },
    async say(body: string, extra: Parameters<typeof inbound>[2] = {}): Promise<string[]> {
      const result = await inbox.receive(inbound(number, body, extra));
      ticketId = result.ticketId;
      if (overrides.disableBot) await knex()('contacts').where({ id: result.contactId }).update({ disableBot: true });
      const replies = await knex()('messages')
        .where({ ticketId, fromMe: true })
        .where('id', '>', seen)
        .whereNot('id', result.messageId)
        .orderBy('id');
      seen = Math.max(seen, ...replies.map((reply: { id: string }) => Number(reply.id)));
      return replies.map((reply: { body: string }) => reply.body);
    },
    ticket: () => knex()('tickets').where({ id: ticketId }).first(),
  };
}

/** What `work` answers, and the SQL of the statements matching `pattern` the app's knex ran meanwhile. */
async function statementsDuring<T>(pattern: RegExp, work: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  const statements: string[] = [];
  const onQuery = (query: { sql: string }) => {
    if (pattern.test(query.sql)) statements.push(query.sql);
  };
  knex().on('query', onQuery);
  try {
    return { value: await work(), statements };
  } finally {
    knex().off('query', onQuery);
  }
}

describe('the menu of queues', () => {
  it('greets a new ticket with the numbered queues, takes a number, greets from the queue and lets agents take over', async () => {
    const sales = await queue('Vendas', { orderQueue: 1 });
    await queue('Suporte', { orderQueue: 2 });
    const maria = contact();
    expect(await maria.say('Oi')).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    expect(await maria.ticket()).toMatchObject({ status: 'pending', queueId: null, isBot: true, amountUsedBotQueues: 1 });
    expect(await maria.say(' 1 ')).toEqual(['Fila Vendas']);
    expect(await maria.ticket()).toMatchObject({ status: 'pending', queueId: sales, userId: null, isBot: false });
    const logs = await knex()('ticketLogs').where({ ticketId: maria.ticketId }).orderBy('id').pluck('type');
    expect(logs).toEqual(['create', 'queue']);
    // the bot is done: the contact now talks to the queue's agents
    expect(await maria.say('2')).toEqual([]);
  });

  it('settles a new ticket that arrives in a queue without options in two statements: one read, one write', async () => {
    const sales = await queue('Vendas', { greetingMessage: '' });
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

  it('answers an invalid choice with the menu again, at most maxUseBotQueues times, then says people will answer', async () => {
    await queue('Vendas', { orderQueue: 1 });
    await queue('Suporte', { orderQueue: 2 });
    const joao = contact();
    expect(await joao.say('Oi')).toHaveLength(1);
    expect(await joao.say('9')).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    expect(await joao.say('quero comprar')).toHaveLength(1);
    // the default limit of 3 menus is spent: the contact is told, and the ticket waits for an agent, without a queue
    expect(await joao.say('x')).toEqual([WAITING_TEXTS.pt]);
    expect(await joao.say('1')).toEqual([]);
    expect(await joao.say('alguém aí?')).toEqual([]);
    expect(await joao.ticket()).toMatchObject({ queueId: null, amountUsedBotQueues: 3, isBot: false });
  });

  it('stops asking after timeUseBotQueues minutes', async () => {
    await knex()('companyServiceHours').where({ companyId: acme }).update({ timeUseBotQueues: 1 });
    await queue('Vendas');
    await queue('Suporte');
    const ana = contact();
    expect(await ana.say('Oi')).toHaveLength(1);
    expect(await ana.say('x')).toHaveLength(1);
    await knex()('chatbotTickets')
      .where({ ticketId: ana.ticketId })
      .update({ startedAt: new Date(Date.now() - 2 * 60_000) });
    expect(await ana.say('y')).toEqual([WAITING_TEXTS.pt]);
    expect(await ana.say('z')).toEqual([]);
  });

  it('picks the only queue by itself; its greeting only with sendGreetingMessageOneQueues', async () => {
    const only = await queue('Única');
    const pedro = contact();
    expect(await pedro.say('Oi')).toEqual(['Fila Única']);
    expect(await pedro.ticket()).toMatchObject({ queueId: only });
    await settings('sendGreetingMessageOneQueues', 'disabled');
    const rita = contact();
    expect(await rita.say('Oi')).toEqual([]);
    expect(await rita.ticket()).toMatchObject({ queueId: only });
  });

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

describe('handing over to people', () => {
  const tree: OptionSeed[] = [
    {
      name: 'Planos',
      greetingMessage: 'Qual plano?',
      options: [
        { name: 'Básico', greetingMessage: 'O básico custa R$ 49.' },
        { name: 'Completo', greetingMessage: 'O completo custa R$ 199.' },
      ],
    },
    { name: 'Entregas', greetingMessage: 'Entregamos em todo o Rio.' },
  ];

  it('takes a question asked at a sub-menu as a question: people will answer, in the queue picked', async () => {
    const sales = await queue('Vendas', { orderQueue: 1 }, tree);
    await queue('Suporte', { orderQueue: 2 });
    const bia = contact();
    await bia.say('Oi');
    expect(await bia.say('1')).toEqual(['Fila Vendas\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Entregas\n*[ # ]* - Menu inicial']);
    expect(await bia.say('Vocês entregam em Niterói?')).toEqual([WAITING_TEXTS.pt]);
    expect(await bia.ticket()).toMatchObject({ status: 'pending', queueId: sales, userId: null, isBot: false });
    expect(await knex()('chatbotTickets').where({ ticketId: bia.ticketId }).first()).toMatchObject({ stage: 'done' });
    // the bot says nothing more: the queue's people have the conversation
    expect(await bia.say('E qual o prazo de entrega para lá')).toEqual([]);
    expect(await bia.say('1')).toEqual([]);
  });

  it('takes a question at the menu of queues the same way; a short miss gets the menu again', async () => {
    await queue('Vendas', { orderQueue: 1 });
    await queue('Suporte', { orderQueue: 2 });
    const caio = contact();
    await caio.say('Bom dia');
    expect(await caio.say('vendas')).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    expect(await caio.say('quanto custa o plano completo')).toEqual([WAITING_TEXTS.pt]);
    expect(await caio.ticket()).toMatchObject({ status: 'pending', queueId: null, isBot: false });
  });

  it("free text at a sub-menu gets it again within maxUseBotQueues, then the handover, once; the company's text when written", async () => {
    await settings('chatbotWaitingMessage', 'Aguarde: nossa equipe já vem.');
    const sales = await queue('Vendas', { orderQueue: 1 }, tree);
    await queue('Suporte', { orderQueue: 2 });
    const davi = contact();
    await davi.say('Oi'); // menu 1
    await davi.say('1'); // menu 2: Vendas' options
    expect(await davi.say('preço')).toHaveLength(1); // menu 3
    expect(await davi.say('ok')).toEqual(['Aguarde: nossa equipe já vem.']);
    expect(await davi.say('ok')).toEqual([]);
    expect(await davi.ticket()).toMatchObject({ queueId: sales, amountUsedBotQueues: 3, isBot: false });
  });

  it('tells a question from a missed choice: a question mark, a sentence, or a question word in pt, en, es or tr', () => {
    for (const question of [
      '?',
      'Vocês entregam em Niterói?',
      'quanto custa',
      'Qual o horário',
      'preciso de ajuda com meu pedido',
      'how much',
      'What is the price',
      '¿Cuánto cuesta?',
      'cuanto cuesta',
      'Nasıl ödeme yaparım',
      'fiyat ne kadar',
      'kargo var mı',
    ]) {
      expect(looksLikeQuestion(question), question).toBe(true);
    }
    for (const miss of ['', '9', 'oi', 'Vendas', 'quero comprar', 'ok', 'bom dia', '*1*', 'mi pedido']) {
      expect(looksLikeQuestion(miss), miss).toBe(false);
    }
  });
});

describe('the option tree', () => {
  const tree: OptionSeed[] = [
    {
      name: 'Planos',
      greetingMessage: 'Qual plano?',
      options: [
        { name: 'Básico', greetingMessage: 'O básico custa R$ 49.' },
        { name: 'Completo', greetingMessage: 'O completo custa R$ 199.' },
      ],
    },
    { name: 'Encerrar', greetingMessage: 'Até logo!', closeTicket: true },
  ];

  it('walks nested options by number, goes back with 0 and to the queues with #', async () => {
    const sales = await queue('Vendas', { orderQueue: 1 }, tree);
    await queue('Suporte', { orderQueue: 2 });
    // every menu counts against maxUseBotQueues (3 by default): no limit for this walk
    await knex()('companyServiceHours').where({ companyId: acme }).update({ maxUseBotQueues: 0 });
    const lia = contact();
    await lia.say('Oi');
    expect(await lia.say('1')).toEqual(['Fila Vendas\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Encerrar\n*[ # ]* - Menu inicial']);
    expect(await lia.say('1')).toEqual([
      'Qual plano?\n\n*[ 1 ]* - Básico\n*[ 2 ]* - Completo\n*[ 0 ]* - Voltar\n*[ # ]* - Menu inicial',
    ]);
    expect(await lia.say('0')).toEqual(['Fila Vendas\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Encerrar\n*[ # ]* - Menu inicial']);
    expect(await lia.say('#')).toEqual(['Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    expect(await lia.ticket()).toMatchObject({ queueId: null });
    await lia.say('1');
    await lia.say('1');
    expect(await lia.say('5')).toEqual([
      'Qual plano?\n\n*[ 1 ]* - Básico\n*[ 2 ]* - Completo\n*[ 0 ]* - Voltar\n*[ # ]* - Menu inicial',
    ]);
    expect(await lia.say('2')).toEqual(['O completo custa R$ 199.']);
    expect(await lia.ticket()).toMatchObject({ status: 'pending', queueId: sales, isBot: false });
    expect(await lia.say('1')).toEqual([]);
  });

  it('chooses a single option by itself, down the levels', async () => {
    const queueId = await queue('Suporte', {}, [
      {
        name: 'Triagem',
        greetingMessage: 'Vamos ver o seu caso.',
        options: [{ name: 'Técnico', greetingMessage: 'Um técnico vai responder.' }],
      },
    ]);
    const caio = contact();
    expect(await caio.say('Oi')).toEqual(['Fila Suporte', 'Vamos ver o seu caso.', 'Um técnico vai responder.']);
    expect(await caio.ticket()).toMatchObject({ queueId, status: 'pending', isBot: false });
  });

  it('closes the ticket on an option that says so', async () => {
    await queue('Vendas', { orderQueue: 1 }, tree);
    await queue('Suporte', { orderQueue: 2 });
    const bia = contact();
    await bia.say('Oi');
    await bia.say('1');
    expect(await bia.say('2')).toEqual(['Até logo!']);
    expect(await bia.ticket()).toMatchObject({ status: 'closed' });
    // the next message opens a new ticket, and the bot starts over
    expect(await bia.say('Oi de novo')).toHaveLength(1);
  });

  it('hands the ticket to the user of an attendent option, or moves it to the queue of a queue option', async () => {
    const support = await queue('Suporte', { orderQueue: 2 });
    await queue('Vendas', { orderQueue: 1 }, [
      { name: 'Gerente', greetingMessage: 'Chamando o gerente.', queueType: 'attendent', optUserId: admin },
      { name: 'Já sou cliente', greetingMessage: 'Passando ao suporte.', queueType: 'queue', optQueueId: support },
    ]);
    const rui = contact();
    await rui.say('Oi');
    await rui.say('1');
    expect(await rui.say('1')).toEqual(['Chamando o gerente.']);
    expect(await rui.ticket()).toMatchObject({ status: 'open', userId: admin });
    const eva = contact();
    await eva.say('Oi');
    await eva.say('1');
    expect(await eva.say('2')).toEqual(['Passando ao suporte.', 'Fila Suporte']);
    expect(await eva.ticket()).toMatchObject({ status: 'pending', queueId: support, userId: null });
    expect(await knex()('ticketLogs').where({ ticketId: eva.ticketId }).orderBy('id').pluck('type')).toEqual([
      'create',
      'queue',
      'redirect',
      'queue',
    ]);
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

describe('after landing in a queue', () => {
  it('userRandom gives the ticket to one of the queue members', async () => {
    await settings('userRandom', 'enabled');
    const only = await queue('Vendas', {}, [], [agent]);
    const zoe = contact();
    await zoe.say('Oi');
    expect(await zoe.ticket()).toMatchObject({ queueId: only, userId: agent, status: 'pending' });
  });

  it("sendQueuePosition tells the contact their place among the queue's waiting tickets", async () => {
    await settings('sendQueuePosition', 'enabled');
    await settings('sendQueuePositionMessage', 'Sua posição na fila:');
    await queue('Vendas', { orderQueue: 1 });
    await queue('Suporte', { orderQueue: 2 });
    const first = contact();
    await first.say('Oi');
    expect(await first.say('1')).toEqual(['Fila Vendas', 'Sua posição na fila: *1*']);
    const second = contact();
    await second.say('Oi');
    expect(await second.say('1')).toEqual(['Fila Vendas', 'Sua posição na fila: *2*']);
  });

  it('rotation: a waiting ticket goes to the next member every tempoRoteador minutes, each step once', async () => {
    // members in id order: the admin, then the agent
    const [firstMember, secondMember] = [admin, agent].sort((a, b) => a - b) as [number, number];
    const rotating = await queue('Rodízio', { ativarRoteador: true, tempoRoteador: 2 }, [], [admin, agent]);
    const nina = contact();
    const started = Date.now();
    await nina.say('Oi');
    expect(await nina.ticket()).toMatchObject({ queueId: rotating, userId: null });
    const waitForUser = async (userId: number) => {
      const deadline = Date.now() + 5_000;
      while ((await nina.ticket()).userId !== userId) {
        if (Date.now() > deadline) throw new Error(`ticket never went to user ${userId}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Date.now() - started;
    };
    // tempoRoteador 2 "minutes" of 100 ms: the first step after ~200 ms, the next ~200 ms later
    expect(await waitForUser(firstMember)).toBeGreaterThanOrEqual(190);
    expect(await waitForUser(secondMember)).toBeGreaterThanOrEqual(390);
    // a step that ran already never acts again
    const before = await nina.ticket();
    const adminCtx = t.balcao.plugins.find((plugin) => plugin.definition.id === 'admin')?.ctx as PluginContext;
    await runInTenant({ companyId: acme }, () =>
      rotateTicketJob({ ticketId: nina.ticketId, queueId: rotating, step: 1 }, adminCtx),
    );
    expect((await nina.ticket()).userId).toBe(before.userId);
    // once an agent takes it, rotation ends
    await knex()('tickets').where({ id: nina.ticketId }).update({ status: 'open', userId: secondMember });
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await nina.ticket()).toMatchObject({ status: 'open', userId: secondMember });
  });

  it('rotation also moves a ticket an agent transferred to the queue without choosing a user', async () => {
    const [firstMember] = [admin, agent].sort((a, b) => a - b) as [number, number];
    const rotating = await queue('Rodízio', { orderQueue: 2, ativarRoteador: true, tempoRoteador: 2 }, [], [admin, agent]);
    await queue('Balcão', { orderQueue: 1 });
    await knex()('companyServiceHours').where({ companyId: acme }).update({ maxUseBotQueues: 1 });
    const otto = contact();
    await otto.say('Oi');
    // the contact never picks: an admin transfers the ticket to the rotating queue, with nobody on it
    const session = await t.login('admin@acme.test');
    const res = await t.inject({
      method: 'PUT',
      url: `/api/tickets/${otto.ticketId}`,
      token: session.token,
      payload: { isTransfered: true, queueId: rotating },
    });
    expect(res.json()).toMatchObject({ status: 'pending', queueId: rotating, userId: null });
    // the bot is done with a ticket an agent placed: the contact's next message gets no menu
    expect(await otto.say('1')).toEqual([]);
    expect(await otto.ticket()).toMatchObject({ queueId: rotating });
    await expect.poll(async () => (await otto.ticket()).userId, { timeout: 5_000, interval: 20 }).toBe(firstMember);
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
