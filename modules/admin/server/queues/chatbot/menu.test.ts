import { describe, expect, it } from 'vitest';
import { acme, admin, contact, knex, type OptionSeed, queue, settings, useChatbotApp } from '../testing/chatbot';
import { looksLikeQuestion, WAITING_TEXTS } from './handoff';

/** The chatbot's menus: the queues, the option tree, the bot's limits and the handover to people. */
useChatbotApp();

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
