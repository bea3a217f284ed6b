import type { InboxService } from '@balcao/plugin-sdk/server';
import { defaultSchedules, type ServiceHours } from '@balcao/plugin-sdk/shared';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConnectionProfile } from '../profile';
import { ChannelsKit } from '../testing/kit';

/**
 * How a conversation starts on a connection (docs/channels/conversation-start.md), turn by turn: real
 * inbound messages through the inbox's channel contract (`receive`, as a driver calls it), the chatbot
 * answering on the bus, and a recording driver taking what reaches the channel. Each test has a company
 * of its own.
 */
let t: TestApp;
let kit: ChannelsKit;
let inbox: InboxService;
/** What the recording driver was asked to send, by ticket. */
/** What the chatbot says once when it hands a conversation over to people (the product's Portuguese text). */
const HANDOVER = 'Obrigado! Um atendente vai continuar a conversa por aqui em breve.';
const delivered = new Map<number, string[]>();

beforeAll(async () => {
  t = await createTestApp();
  kit = new ChannelsKit(t);
  inbox = t.balcao.core.services.use('inbox');
  inbox.registerDriver('whatsapp', {
    async send(target, message) {
      delivered.set(target.ticket.id, [...(delivered.get(target.ticket.id) ?? []), message.body]);
      return { channelMessageId: `behaviours-out-${message.messageId}` };
    },
  });
});
afterAll(async () => {
  await t?.close();
});

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

const pad = (value: number) => String(value).padStart(2, '0');
/** The server's local date `days` from today, as YYYY-MM-DD. */
function day(days: number): string {
  const at = new Date();
  at.setDate(at.getDate() + days);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Sets a company setting through the core (its cache is dropped; a row written straight would be read stale). */
const setting = (companyId: number, key: string, value: string) => t.balcao.core.settings.set(companyId, key, value);

let seq = 0;

/** A company of its own with queues (in this menu order) and the company's bot greeting. */
async function company(queueNames: string[] = [], companyGreeting = 'Saudação da empresa') {
  const { companyId } = await kit.companyWithPlan();
  await kit.knex('companyServiceHours').insert({ companyId, greetingMessage: companyGreeting });
  const queues: Record<string, number> = {};
  for (const [index, name] of queueNames.entries()) {
    const [row] = await kit
      .knex('queues')
      .insert({
        companyId,
        name,
        color: `#${(index + 1).toString(16).padStart(6, '0')}`,
        orderQueue: index + 1,
        greetingMessage: `Fila ${name}`,
      })
      .returning('id');
    queues[name] = row.id;
  }
  return { companyId, queues };
}

/** A WhatsApp connection of the company (its fields as stored). */
const connection = (companyId: number, fields: Record<string, unknown> & { queueIds?: number[] }) =>
  kit.connection(companyId, { channel: 'whatsapp', name: 'Loja Centro', status: 'CONNECTED', ...fields });

/** A contact writing on a connection: each `say` is one inbound message; answers the bot's replies to it. */
function contact(companyId: number, connectionId: number, name = 'Maria Silva') {
  seq += 1;
  const number = `55319${String(Date.now() % 1e5).padStart(5, '0')}${String(seq).padStart(3, '0')}`;
  let ticketId = 0;
  let seen = 0;
  return {
    get ticketId() {
      return ticketId;
    },
    async say(body: string): Promise<string[]> {
      seq += 1;
      const result = await inbox.receive({
        companyId,
        whatsappId: connectionId,
        channel: 'whatsapp',
        contact: { identifiers: [`${number}@s.whatsapp.net`], number, name },
        message: { id: `behaviours-${Date.now().toString(36)}-${seq}`, body },
      });
      ticketId = result.ticketId;
      const replies = await kit.knex('messages').where({ ticketId, fromMe: true }).where('id', '>', seen).orderBy('id');
      seen = Math.max(seen, ...replies.map((reply: { id: string }) => Number(reply.id)));
      return replies.map((reply: { body: string }) => reply.body);
    },
    ticket: () => kit.knex('tickets').where({ id: ticketId }).first(),
    logs: () => kit.knex('ticketLogs').where({ ticketId }).orderBy('id').pluck('type'),
  };
}

describe('the greeting and the queues of the connection', () => {
  it("greets with the connection's greeting (variables filled) and offers only its queues, in menu order", async () => {
    const { companyId, queues } = await company(['Vendas', 'Suporte', 'Financeiro']);
    const connectionId = await connection(companyId, {
      greetingMessage: 'Olá {{firstName}}, aqui é a {{connection}}. Escolha:',
      queueIds: [queues.Financeiro as number, queues.Vendas as number],
    });
    const maria = contact(companyId, connectionId);
    const menu = 'Olá Maria, aqui é a Loja Centro. Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Financeiro';
    expect(await maria.say('Oi')).toEqual([menu]);
    // it reached the channel through the driver
    await expect.poll(() => delivered.get(maria.ticketId), { timeout: 5_000, interval: 10 }).toEqual([menu]);
    // a number beyond the connection's queues is no choice
    expect(await maria.say('3')).toEqual([menu]);
    expect(await maria.say('2')).toEqual(['Fila Financeiro']);
    expect(await maria.ticket()).toMatchObject({ status: 'pending', queueId: queues.Financeiro, isBot: false });
    expect(await maria.logs()).toEqual(['create', 'queue']);
  });

  it("without queues of its own the connection offers every queue; without a greeting the company's", async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    const connectionId = await connection(companyId, { greetingMessage: '' });
    expect(await contact(companyId, connectionId).say('Oi')).toEqual([
      'Saudação da empresa\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte',
    ]);
  });

  it('a connection with a single queue puts the ticket there; its greeting only with sendGreetingMessageOneQueues', async () => {
    const { companyId, queues } = await company(['Vendas', 'Suporte']);
    const connectionId = await connection(companyId, { greetingMessage: 'Olá!', queueIds: [queues.Suporte as number] });
    const ivo = contact(companyId, connectionId);
    expect(await ivo.say('Oi')).toEqual(['Fila Suporte']);
    expect(await ivo.ticket()).toMatchObject({ status: 'pending', queueId: queues.Suporte });
    await setting(companyId, 'sendGreetingMessageOneQueues', 'disabled');
    const ada = contact(companyId, connectionId, 'Ada');
    expect(await ada.say('Oi')).toEqual([]);
    expect(await ada.ticket()).toMatchObject({ queueId: queues.Suporte });
  });

  it("counts menus against the connection's maxUseBotQueues and timeUseBotQueues, not the company's", async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    await kit.knex('companyServiceHours').where({ companyId }).update({ maxUseBotQueues: 5 });
    const once = await connection(companyId, { greetingMessage: 'Escolha:', maxUseBotQueues: 1 });
    const leo = contact(companyId, once, 'Leo');
    expect(await leo.say('Oi')).toHaveLength(1);
    // the bot's limit is spent: it says once that people will answer, then nothing more
    expect(await leo.say('9')).toEqual([HANDOVER]);
    expect(await leo.say('10')).toEqual([]);
    expect(await leo.ticket()).toMatchObject({ queueId: null, amountUsedBotQueues: 1, isBot: false });

    const minute = await connection(companyId, { greetingMessage: 'Escolha:', maxUseBotQueues: 0, timeUseBotQueues: 1 });
    const bia = contact(companyId, minute, 'Bia');
    expect(await bia.say('Oi')).toHaveLength(1);
    expect(await bia.say('x')).toHaveLength(1);
    await kit
      .knex('chatbotTickets')
      .where({ ticketId: bia.ticketId })
      .update({ startedAt: new Date(Date.now() - 2 * 60_000) });
    expect(await bia.say('y')).toEqual([HANDOVER]);
    expect(await bia.say('z')).toEqual([]);
  });

  it("follows the company's settings when the ticket's connection doesn't exist (no profile)", async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    const gone = await connection(companyId, { greetingMessage: 'Da conexão' });
    await kit.knex('whatsapps').where({ id: gone }).delete();
    await invalidateConnectionProfile(kit.ctx, companyId, gone);
    expect(await contact(companyId, gone).say('Oi')).toEqual(['Saudação da empresa\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
  });
});

describe('out of hours by connection (scheduleType connection)', () => {
  it("tells the connection's out-of-hours message once and the bot stops; open hours get the menu", async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    await setting(companyId, 'scheduleType', 'connection');
    // the company's own hours don't count under scheduleType connection
    await kit
      .knex('companyServiceHours')
      .where({ companyId })
      .update({ schedules: JSON.stringify(openAllDay), outOfHoursMessage: 'da empresa' });
    const closed = await connection(companyId, {
      greetingMessage: 'Escolha:',
      schedules: JSON.stringify(closedAllWeek),
      outOfHoursMessage: 'A Loja Centro atende das 8h às 18h.',
    });
    const rui = contact(companyId, closed, 'Rui');
    expect(await rui.say('Oi')).toEqual(['A Loja Centro atende das 8h às 18h.']);
    expect(await rui.say('Alô?')).toEqual([]);
    expect(await rui.say('1')).toEqual([]);
    expect(await rui.ticket()).toMatchObject({ status: 'pending', queueId: null, isBot: false });

    const open = await connection(companyId, {
      greetingMessage: 'Escolha:',
      schedules: JSON.stringify(openAllDay),
      outOfHoursMessage: 'Fechado',
    });
    expect(await contact(companyId, open, 'Eva').say('Oi')).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
  });

  it("other schedule types don't read the connection's hours", async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    await setting(companyId, 'scheduleType', 'disabled');
    const closed = await connection(companyId, {
      greetingMessage: 'Escolha:',
      schedules: JSON.stringify(closedAllWeek),
      outOfHoursMessage: 'Fechado',
    });
    expect(await contact(companyId, closed).say('Oi')).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
  });
});

describe('collective vacation', () => {
  const vacation = 'Estamos em férias coletivas. Voltamos logo!';

  it('from its first day to its last, a contact gets the message once per ticket and nothing else from the bot', async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    for (const [start, end] of [
      [day(0), day(3)],
      [day(-3), day(0)],
    ]) {
      const connectionId = await connection(companyId, {
        greetingMessage: 'Escolha:',
        collectiveVacationMessage: vacation,
        collectiveVacationStart: start,
        collectiveVacationEnd: end,
      });
      const ana = contact(companyId, connectionId, 'Ana');
      expect(await ana.say('Oi')).toEqual([vacation]);
      expect(await ana.say('1')).toEqual([]);
      expect(await ana.say('Alguém?')).toEqual([]);
      expect(await ana.ticket()).toMatchObject({ status: 'pending', queueId: null, isBot: false });
    }
  });

  it('before its first day and after its last the bot works as usual', async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    for (const [start, end] of [
      [day(1), day(5)],
      [day(-5), day(-1)],
    ]) {
      const connectionId = await connection(companyId, {
        greetingMessage: 'Escolha:',
        collectiveVacationMessage: vacation,
        collectiveVacationStart: start,
        collectiveVacationEnd: end,
      });
      expect(await contact(companyId, connectionId).say('Oi')).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    }
  });

  it('comes before the LGPD question', async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    await setting(companyId, 'enableLGPD', 'enabled');
    await setting(companyId, 'lgpdConsent', 'enabled');
    const connectionId = await connection(companyId, {
      collectiveVacationMessage: vacation,
      collectiveVacationStart: day(0),
      collectiveVacationEnd: day(0),
    });
    const caio = contact(companyId, connectionId, 'Caio');
    expect(await caio.say('Oi')).toEqual([vacation]);
    expect(await caio.say('1')).toEqual([]);
    expect(await caio.ticket()).toMatchObject({ status: 'pending' });
  });
});

describe('LGPD consent on a connection', () => {
  it("asks with the connection's lgpdMessage over the company's, then the connection's greeting and queues", async () => {
    const { companyId, queues } = await company(['Vendas', 'Suporte', 'Financeiro']);
    await setting(companyId, 'enableLGPD', 'enabled');
    await setting(companyId, 'lgpdConsent', 'enabled');
    await setting(companyId, 'lgpdMessage', 'Texto da empresa');
    await setting(companyId, 'lgpdLink', 'https://loja.test/lgpd');
    const connectionId = await connection(companyId, {
      greetingMessage: 'Escolha:',
      lgpdMessage: 'A Loja Centro trata os seus dados conforme a LGPD. Aceita?',
      queueIds: [queues.Vendas as number, queues.Suporte as number],
    });
    const otto = contact(companyId, connectionId, 'Otto');
    expect(await otto.say('Oi')).toEqual([
      'A Loja Centro trata os seus dados conforme a LGPD. Aceita?\n\nhttps://loja.test/lgpd\n\n*[ 1 ]* - Aceito\n*[ 2 ]* - Não aceito',
    ]);
    expect(await otto.ticket()).toMatchObject({ status: 'lgpd' });
    expect(await otto.say('1')).toEqual(['Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte']);
    expect(await otto.say('1')).toEqual(['Fila Vendas']);
    expect(await otto.logs()).toEqual(['create', 'lgpd', 'lgpdAccepted', 'queue']);
    const ticket = await otto.ticket();
    const row = await kit.knex('contacts').where({ id: ticket.contactId }).first('lgpdAcceptedAt');
    expect(row.lgpdAcceptedAt).toBeInstanceOf(Date);
  });

  it('under scheduleType connection, consent comes first and the hours after it', async () => {
    const { companyId } = await company(['Vendas', 'Suporte']);
    await setting(companyId, 'enableLGPD', 'enabled');
    await setting(companyId, 'lgpdConsent', 'enabled');
    await setting(companyId, 'scheduleType', 'connection');
    const connectionId = await connection(companyId, {
      schedules: JSON.stringify(closedAllWeek),
      outOfHoursMessage: 'Fechado agora.',
    });
    const lia = contact(companyId, connectionId, 'Lia');
    expect(await lia.say('Oi')).toHaveLength(1);
    expect(await lia.say('1')).toEqual(['Fechado agora.']);
    expect(await lia.ticket()).toMatchObject({ status: 'pending', isBot: false });
  });
});
