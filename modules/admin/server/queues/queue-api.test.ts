import { companyEvent } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSchedules } from '../../shared/queues';

/** Queues administration (docs/product/administration.md#entities Queue, #validation, #calls-and-realtime-events Queues, #errors) and company service hours. */
let t: TestApp;
let admin: TestSession;
let agent: TestSession;
let acme: number;
let colorSeq = 0;
/** A colour no other test uses. */
const color = () => {
  colorSeq += 1;
  return `#A${String(colorSeq).padStart(5, '0')}`;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
  acme = t.demo.companies.acme;
});
afterAll(async () => {
  await t?.close();
});

const knex = () => t.balcao.core.knex;
/** The app's address: it listens once for every test that needs sockets. */
let address: string | undefined;
const listen = async () => {
  address ??= await t.listen();
  return address;
};
/** A queue as the dialog sends it: with its chatbot list (empty unless the test gives one). */
const post = (body: object, token = admin.token) =>
  t.inject({ method: 'POST', url: '/api/queue', token, payload: { chatbots: [], ...body } });
const put = (id: number, body: unknown, token = admin.token) =>
  t.inject({ method: 'PUT', url: `/api/queue/${id}`, token, payload: body as object });

describe('POST /queue, GET /queue/:queueId', () => {
  it('creates a queue with the default service hours and a two-level option tree, and reads it back', async () => {
    const res = await post({
      name: 'Comercial',
      color: color(),
      greetingMessage: 'Bem-vindo ao comercial',
      orderQueue: 4,
      tempoRoteador: 5,
      ativarRoteador: true,
      chatbots: [
        {
          name: 'Planos',
          greetingMessage: 'Qual plano?',
          queueType: 'text',
          options: [
            { name: 'Básico', greetingMessage: 'Básico: R$ 49', queueType: 'text' },
            { name: 'Completo', greetingMessage: 'Completo: R$ 199', queueType: 'text', closeTicket: true },
          ],
        },
        { name: 'Gerente', greetingMessage: 'Chamando', queueType: 'attendent', optUserId: t.demo.users.acmeAdmin },
      ],
    });
    expect(res.statusCode).toBe(201);
    const queue = res.json();
    expect(queue).toMatchObject({
      name: 'Comercial',
      orderQueue: 4,
      tempoRoteador: 5,
      ativarRoteador: true,
      schedules: defaultSchedules(),
      chatbots: [
        {
          name: 'Planos',
          chatbotId: null,
          options: [
            { name: 'Básico', options: [] },
            { name: 'Completo', closeTicket: true },
          ],
        },
        { name: 'Gerente', queueType: 'attendent', optUserId: t.demo.users.acmeAdmin },
      ],
    });
    const read = await t.inject({ method: 'GET', url: `/api/queue/${queue.id}`, token: admin.token });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(queue);
    // the inbox's list (the documented GET /queue: pickers and the Queues page's table) shows it too: one table, two modules
    const list = await t.inject({ method: 'GET', url: '/api/queue', token: agent.token });
    expect(list.json()).toContainEqual({
      id: queue.id,
      name: 'Comercial',
      color: queue.color,
      orderQueue: queue.orderQueue,
      greetingMessage: queue.greetingMessage,
    });
  });

  it('refuses profile users and strangers; another company reads 404', async () => {
    const created = (await post({ name: 'Privada', color: color(), greetingMessage: 'Olá' })).json();
    expect((await post({ name: 'Agente', color: color(), greetingMessage: 'x' }, agent.token)).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: `/api/queue/${created.id}`, token: agent.token })).statusCode).toBe(403);
    expect((await t.inject({ method: 'DELETE', url: `/api/queue/${created.id}`, token: agent.token })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: `/api/queue/${created.id}` })).statusCode).toBe(401);
    const lite = await t.login('admin@lite.test');
    const other = await t.inject({ method: 'GET', url: `/api/queue/${created.id}`, token: lite.token });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
    expect((await put(created.id, { name: 'Roubada' }, lite.token)).statusCode).toBe(404);
  });

  it('validates: name 2 to 50, colour 3 to 9, option names of 4 or more, known rotation times', async () => {
    for (const body of [
      { name: 'A', color: color(), greetingMessage: 'x' },
      { name: 'x'.repeat(51), color: color(), greetingMessage: 'x' },
      { name: 'Cor', color: '#1', greetingMessage: 'x' },
      { name: 'Cor', color: '#1234567890', greetingMessage: 'x' },
      {
        name: 'Opção',
        color: color(),
        greetingMessage: 'x',
        chatbots: [{ name: 'Sim', greetingMessage: '', queueType: 'text' }],
      },
      { name: 'Rotação', color: color(), greetingMessage: 'x', tempoRoteador: 3 },
      {
        name: 'Tipo',
        color: color(),
        greetingMessage: 'x',
        chatbots: [{ name: 'Opção', greetingMessage: '', queueType: 'menu' }],
      },
    ]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });

  it('keeps colours unique per company, without case: 409 ERR_QUEUE_COLOR_ALREADY_EXISTS', async () => {
    const first = (await post({ name: 'Azul', color: '#00AAFF', greetingMessage: 'Olá' })).json();
    const same = await post({ name: 'Azul 2', color: '#00aaff', greetingMessage: 'Olá' });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    const second = (await post({ name: 'Verde', color: color(), greetingMessage: 'Olá' })).json();
    const changed = await put(second.id, { color: '#00AAFF' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toEqual({ error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
    // its own colour is no conflict, and another company may use it
    expect((await put(first.id, { color: '#00AAFF', name: 'Azul claro' })).statusCode).toBe(200);
    const lite = await t.login('admin@lite.test');
    expect((await post({ name: 'Azul', color: '#00AAFF' }, lite.token)).statusCode).toBe(201);
  });

  it('requires a greeting once the company has more than one queue: ERR_WAPP_GREETING_REQUIRED', async () => {
    const res = await post({ name: 'Sem saudação', color: color() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_WAPP_GREETING_REQUIRED' });
    const queue = (await post({ name: 'Com saudação', color: color(), greetingMessage: 'Olá' })).json();
    expect((await put(queue.id, { greetingMessage: '  ' })).json()).toEqual({ error: 'ERR_WAPP_GREETING_REQUIRED' });
  });

  it('requires the chatbot list on create (docs/product/administration.md#validation); an empty list is a queue without a menu', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/queue',
      token: admin.token,
      payload: { name: 'Sem lista', color: color(), greetingMessage: 'Olá' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(JSON.stringify(res.json().details)).toContain('chatbots');
    expect(await knex()('queues').where({ companyId: acme, name: 'Sem lista' }).first()).toBeUndefined();
    const empty = await post({ name: 'Sem lista', color: color(), greetingMessage: 'Olá', chatbots: [] });
    expect(empty.statusCode).toBe(201);
    expect(empty.json().chatbots).toEqual([]);
    // a change of name alone keeps the tree
    expect((await put(empty.json().id, { name: 'Sem lista 2' })).statusCode).toBe(200);
  });

  it('requires the out-of-hours message when scheduleType is queue', async () => {
    await t.balcao.core.settings.set(acme, 'scheduleType', 'queue');
    try {
      const res = await post({ name: 'Horário', color: color(), greetingMessage: 'Olá' });
      expect(res.json()).toEqual({ error: 'ERR_OUT_OF_HOURS_MESSAGE_REQUIRED' });
      const ok = await post({ name: 'Horário', color: color(), greetingMessage: 'Olá', outOfHoursMessage: 'Fechado' });
      expect(ok.statusCode).toBe(201);
    } finally {
      await t.balcao.core.settings.set(acme, 'scheduleType', 'disabled');
    }
  });

  it("stops at the plan's queue limit: ERR_QUEUE_PLAN_LIMIT", async () => {
    const lite = await t.login('admin@lite.test');
    const liteId = t.demo.companies.lite;
    const [{ count }] = (await knex()('queues').where({ companyId: liteId }).count({ count: '*' })) as [{ count: string }];
    const plan = await knex()('companies as c').join('plans as p', 'p.id', 'c.planId').where('c.id', liteId).first('p.queues');
    for (let n = Number(count); n < plan.queues; n += 1) {
      expect((await post({ name: `Lite ${n}`, color: color(), greetingMessage: 'Olá' }, lite.token)).statusCode).toBe(201);
    }
    const over = await post({ name: 'Uma a mais', color: color(), greetingMessage: 'Olá' }, lite.token);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ error: 'ERR_QUEUE_PLAN_LIMIT', limit: plan.queues });
  });

  it('validates service hours: two shifts per weekday, each starting before it ends', async () => {
    const schedules = defaultSchedules().map((day) =>
      day.weekdayEn === 'sunday' ? { ...day, startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' } : day,
    );
    const res = await post({ name: 'Semana', color: color(), greetingMessage: 'Olá', schedules });
    expect(res.statusCode).toBe(201);
    expect(res.json().schedules[0]).toMatchObject({ weekdayEn: 'sunday', startTimeA: '', endTimeB: '' });
    const backwards = defaultSchedules().map((day) =>
      day.weekdayEn === 'monday' ? { ...day, startTimeB: '18:00', endTimeB: '13:00' } : day,
    );
    expect((await put(res.json().id, { schedules: backwards })).json()).toMatchObject({ error: 'ERR_INVALID_SCHEDULE' });
    const twice = [...defaultSchedules(), defaultSchedules()[1]];
    expect((await put(res.json().id, { schedules: twice })).statusCode).toBe(400);
    expect((await put(res.json().id, { schedules: [{ ...defaultSchedules()[1], startTimeA: '25:00' }] })).statusCode).toBe(400);
  });
});

describe('PUT /queue/:queueId, DELETE /queue/:queueId', () => {
  it('replaces the option tree keeping the ids it names, and emits company-{id}-queue update', async () => {
    const queue = (
      await post({
        name: 'Árvore',
        color: color(),
        greetingMessage: 'Olá',
        chatbots: [
          {
            name: 'Primeira',
            greetingMessage: 'Um',
            queueType: 'text',
            options: [{ name: 'Filha', greetingMessage: '', queueType: 'text' }],
          },
          { name: 'Segunda', greetingMessage: 'Dois', queueType: 'text' },
        ],
      })
    ).json();
    const [first, second] = queue.chatbots;
    const socket = await connectSocket(await listen(), acme, admin.token);
    try {
      const event = nextEvent(socket, companyEvent(acme, 'queue'));
      const res = await put(queue.id, {
        name: 'Árvore nova',
        chatbots: [
          {
            id: second.id,
            name: 'Segunda',
            greetingMessage: 'Dois',
            queueType: 'text',
            options: [{ id: first.options[0].id, name: 'Filha', greetingMessage: '', queueType: 'text' }],
          },
        ],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().chatbots).toEqual([
        expect.objectContaining({
          id: second.id,
          options: [expect.objectContaining({ id: first.options[0].id, chatbotId: second.id })],
        }),
      ]);
      expect(await event).toMatchObject({ action: 'update', queue: { id: queue.id, name: 'Árvore nova' } });
      expect(await knex()('chatbots').where({ id: first.id }).first()).toBeUndefined();
    } finally {
      socket.disconnect();
    }
  });

  it('refuses option ids of another queue and targets outside the company', async () => {
    const one = (
      await post({
        name: 'Uma',
        color: color(),
        greetingMessage: 'Olá',
        chatbots: [{ name: 'Dela', greetingMessage: '', queueType: 'text' }],
      })
    ).json();
    const two = (await post({ name: 'Outra', color: color(), greetingMessage: 'Olá' })).json();
    const stolen = await put(two.id, {
      chatbots: [{ id: one.chatbots[0].id, name: 'Minha', greetingMessage: '', queueType: 'text' }],
    });
    expect(stolen.json()).toEqual({ error: 'ERR_NO_CHATBOT_FOUND' });
    const liteQueue = await knex()('queues')
      .insert({ companyId: t.demo.companies.lite, name: 'Lite', color: '#123' })
      .returning('id');
    const foreign = await put(two.id, {
      chatbots: [{ name: 'Para lá', greetingMessage: '', queueType: 'queue', optQueueId: liteQueue[0].id }],
    });
    expect(foreign.json()).toEqual({ error: 'ERR_CHATBOT_QUEUE_REQUIRED' });
    const noUser = await put(two.id, { chatbots: [{ name: 'Ninguém', greetingMessage: '', queueType: 'attendent' }] });
    expect(noUser.json()).toEqual({ error: 'ERR_CHATBOT_USER_REQUIRED' });
    const silentParent = await put(two.id, {
      chatbots: [
        {
          name: 'Muda',
          greetingMessage: '',
          queueType: 'text',
          options: [{ name: 'Filha', greetingMessage: '', queueType: 'text' }],
        },
      ],
    });
    expect(silentParent.json()).toEqual({ error: 'ERR_CHATBOT_MESSAGE_REQUIRED' });
  });

  it("deletes a queue: tickets stay without it, members' sessions lose it at once, company-{id}-queue delete", async () => {
    const queue = (await post({ name: 'Temporária', color: color(), greetingMessage: 'Olá' })).json();
    await knex()('userQueues').insert({ companyId: acme, userId: t.demo.users.acmeAgent, queueId: queue.id });
    await t.balcao.core.sessions.invalidateUser(t.demo.users.acmeAgent);
    const me = async () => (await t.inject({ method: 'GET', url: '/api/auth/me', token: agent.token })).json();
    expect((await me()).queues.map((q: { id: number }) => q.id)).toContain(queue.id);
    const contact = await knex()('contacts').insert({ companyId: acme, name: 'Fila', number: '5511911110000' }).returning('id');
    const ticket = await knex()('tickets')
      .insert({ companyId: acme, contactId: contact[0].id, queueId: queue.id, status: 'pending' })
      .returning('id');
    const socket = await connectSocket(await listen(), acme, admin.token);
    try {
      const event = nextEvent(socket, companyEvent(acme, 'queue'));
      const res = await t.inject({ method: 'DELETE', url: `/api/queue/${queue.id}`, token: admin.token });
      expect(res.statusCode).toBe(204);
      expect(await event).toEqual({ action: 'delete', queueId: queue.id });
    } finally {
      socket.disconnect();
    }
    expect((await me()).queues.map((q: { id: number }) => q.id)).not.toContain(queue.id);
    expect(await knex()('tickets').where({ id: ticket[0].id }).first('queueId')).toEqual({ queueId: null });
    expect((await t.inject({ method: 'DELETE', url: `/api/queue/${queue.id}`, token: admin.token })).statusCode).toBe(404);
  });
});

describe('/chatbot', () => {
  it('creates, reads, changes and deletes options one by one, nested under their parent', async () => {
    const queue = (await post({ name: 'Opções', color: color(), greetingMessage: 'Olá' })).json();
    const root = await t.inject({
      method: 'POST',
      url: '/api/chatbot',
      token: admin.token,
      payload: { queueId: queue.id, name: 'Suporte técnico', greetingMessage: 'Qual produto?', queueType: 'text' },
    });
    expect(root.statusCode).toBe(201);
    const child = await t.inject({
      method: 'POST',
      url: '/api/chatbot',
      token: admin.token,
      payload: {
        queueId: queue.id,
        chatbotId: root.json().id,
        name: 'Impressora',
        greetingMessage: 'Já reiniciou?',
        queueType: 'text',
      },
    });
    expect(child.statusCode).toBe(201);
    expect(child.json()).toMatchObject({ chatbotId: root.json().id, name: 'Impressora' });
    const read = await t.inject({ method: 'GET', url: `/api/chatbot/${root.json().id}`, token: admin.token });
    expect(read.json()).toMatchObject({ name: 'Suporte técnico', options: [{ id: child.json().id, name: 'Impressora' }] });
    const changed = await t.inject({
      method: 'PUT',
      url: `/api/chatbot/${child.json().id}`,
      token: admin.token,
      payload: { name: 'Impressora laser', queueType: 'queue', optQueueId: queue.id },
    });
    expect(changed.json()).toMatchObject({
      name: 'Impressora laser',
      queueType: 'queue',
      optQueueId: queue.id,
      chatbotId: root.json().id,
    });
    // a parent without a message can't take nested options
    const mute = await t.inject({
      method: 'PUT',
      url: `/api/chatbot/${root.json().id}`,
      token: admin.token,
      payload: { greetingMessage: '' },
    });
    expect(mute.json()).toEqual({ error: 'ERR_CHATBOT_MESSAGE_REQUIRED' });
    expect((await t.inject({ method: 'DELETE', url: `/api/chatbot/${root.json().id}`, token: admin.token })).statusCode).toBe(
      204,
    );
    expect(await knex()('chatbots').whereIn('id', [root.json().id, child.json().id])).toEqual([]);
    expect((await t.inject({ method: 'GET', url: `/api/chatbot/${root.json().id}`, token: admin.token })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/chatbot/${child.json().id}`, token: agent.token })).statusCode).toBe(403);
  });
});

describe('/companies/:companyId/schedules', () => {
  it("reads the defaults, saves the week ('Horários atualizados com sucesso' in the UI) for its own company only", async () => {
    const url = `/api/companies/${acme}/schedules`;
    const read = await t.inject({ method: 'GET', url, token: admin.token });
    expect(read.statusCode).toBe(200);
    expect(read.json().schedules).toEqual(defaultSchedules());
    const schedules = defaultSchedules().map((day) => ({ ...day, startTimeA: '09:00' }));
    const saved = await t.inject({
      method: 'PUT',
      url,
      token: admin.token,
      payload: { schedules, outOfHoursMessage: 'Fechado agora' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ schedules, outOfHoursMessage: 'Fechado agora' });
    expect((await t.inject({ method: 'GET', url, token: admin.token })).json()).toEqual(saved.json());
    expect((await t.inject({ method: 'GET', url, token: agent.token })).statusCode).toBe(403);
    const lite = await t.login('admin@lite.test');
    expect((await t.inject({ method: 'PUT', url, token: lite.token, payload: { schedules } })).statusCode).toBe(404);
    // the super user may set any company's
    const root = await t.login('super@balcao.test');
    const bySuper = await t.inject({ method: 'PUT', url, token: root.token, payload: { schedules: defaultSchedules() } });
    expect(bySuper.json()).toEqual({ schedules: defaultSchedules(), outOfHoursMessage: 'Fechado agora' });
    expect((await t.inject({ method: 'GET', url: '/api/companies/999999/schedules', token: root.token })).statusCode).toBe(404);
  });
});

describe('the services other features use (companyHours, chatbotMenus)', () => {
  it("answers each company's own saved week, or the defaults", async () => {
    const hours = t.balcao.core.services.use('companyHours');
    const lite = t.demo.companies.lite as number;
    const week = defaultSchedules().map((day) => ({ ...day, startTimeA: '07:30' }));
    await t.inject({ method: 'PUT', url: `/api/companies/${acme}/schedules`, token: admin.token, payload: { schedules: week } });
    expect(await hours.serviceHours(acme)).toEqual(week);
    expect(await hours.serviceHours(lite)).toEqual(defaultSchedules());
  });

  it("adds a file list option once, after the queue's last top-level option; no queue of that name: false", async () => {
    const menus = t.balcao.core.services.use('chatbotMenus');
    const [queue] = await knex()('queues').insert({ companyId: acme, name: 'Arquivos', color: color() }).returning('id');
    const queueId = queue.id as number;
    await knex()('chatbots').insert({ companyId: acme, queueId, name: 'Primeira', queueType: 'text', orderOption: 0 });
    const [list] = await knex()('files').insert({ companyId: acme, name: 'Catálogo', message: '' }).returning('id');
    const option = { queueName: 'Arquivos', optionName: 'Baixar', fileListId: list.id as number };
    expect(await menus.offerFileList(acme, option)).toBe(true);
    expect(await menus.offerFileList(acme, option)).toBe(true);
    const rows = await knex()('chatbots').where({ companyId: acme, queueId }).whereNull('chatbotId').orderBy('orderOption');
    expect(rows.map((row) => [row.name, row.queueType, row.optFileId])).toEqual([
      ['Primeira', 'text', null],
      ['Baixar', 'file', list.id],
    ]);
    expect(await menus.offerFileList(acme, { ...option, queueName: 'Nenhuma' })).toBe(false);
  });
});
