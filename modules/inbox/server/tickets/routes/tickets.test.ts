import { DEFAULT_CUSTOMER_TEXTS } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExistingTicketInfo, Ticket, TicketLog } from '../../../shared/types';
import { type KitUser, TicketKit } from '../testing/ticket-kit';

/**
 * POST /tickets, PUT /tickets/:id (every transition of docs/inbox-api.md with its rule and its log entry),
 * DELETE /tickets/:id, POST /tickets/closeAll, GET /tickets-log/:ticketId, and cross-tenant refusals.
 */
let t: TestApp;
let kit: TicketKit;
let companyId: number;
let admin: KitUser;
let agent1: KitUser;
let agent2: KitUser;
let q1: number;
let q2: number;

beforeAll(async () => {
  t = await createTestApp();
  kit = new TicketKit(t);
  ({ companyId, admin } = await kit.company());
  q1 = await kit.queue(companyId, 'Vendas');
  q2 = await kit.queue(companyId, 'Suporte');
  agent1 = await kit.user(companyId, { name: 'Ana Agente', queueIds: [q1], farewellMessage: 'Até logo, {{firstName}}!' });
  agent2 = await kit.user(companyId, { name: 'Bruno', queueIds: [q2] });
});
afterAll(async () => {
  await t?.close();
});

const put = (user: KitUser, id: number, body: Record<string, unknown>) => kit.call<Ticket>(user, 'PUT', `/tickets/${id}`, body);
const logTypes = async (id: number) => (await kit.logs(id)).map((entry) => entry.type);
const messagesOf = (ticketId: number) =>
  kit.knex('messages').where({ ticketId }).orderBy('id').select('body', 'fromMe', 'userId') as Promise<
    Array<{ body: string; fromMe: boolean; userId: number | null }>
  >;
const errorInfo = (body: unknown) => JSON.parse((body as { message: string }).message) as ExistingTicketInfo;

describe('POST /tickets', () => {
  it('creates an open ticket of the caller, logging create and open', async () => {
    const contactId = await kit.contact(companyId, { name: 'Carla Cliente' });
    const response = await kit.call<Ticket>(agent1, 'POST', '/tickets', { contactId, queueId: q1, status: 'open' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'open', userId: agent1.id, queueId: q1, contactId, queue: { name: 'Vendas' } });
    expect(response.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await kit.logs(response.body.id)).toEqual([
      { type: 'create', userId: agent1.id, queueId: q1 },
      { type: 'open', userId: agent1.id, queueId: q1 },
    ]);
  });

  it('creates a pending ticket without a user, logging only create; a group contact opens as group', async () => {
    const pending = await kit.call<Ticket>(agent1, 'POST', '/tickets', {
      contactId: await kit.contact(companyId),
      queueId: q1,
      status: 'pending',
    });
    expect(pending.body).toMatchObject({ status: 'pending', userId: null });
    expect(await logTypes(pending.body.id)).toEqual(['create']);
    const groupContact = await kit.contact(companyId, { isGroup: true, number: '120363999' });
    const group = await kit.call<Ticket>(admin, 'POST', '/tickets', { contactId: groupContact, queueId: q1, status: 'open' });
    expect(group.body).toMatchObject({ status: 'group', isGroup: true, userId: admin.id });
  });

  it('refuses a contact with an active ticket on the same connection with the existing ticket’s info', async () => {
    const contactId = await kit.contact(companyId);
    const first = await kit.call<Ticket>(agent1, 'POST', '/tickets', { contactId, queueId: q1, status: 'open' });
    const second = await kit.call(admin, 'POST', '/tickets', { contactId, queueId: q2, status: 'open' });
    expect(second.status).toBe(409);
    expect((second.body as { error: string }).error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(errorInfo(second.body)).toEqual({
      userId: agent1.id,
      userName: 'Ana Agente',
      queueName: 'Vendas',
      uuid: first.body.uuid,
      status: 'open',
    });
  });

  it('answers the same 409 to the losers of a race (the unique index decides)', async () => {
    const contactId = await kit.contact(companyId);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => kit.call(admin, 'POST', '/tickets', { contactId, queueId: q1, status: 'pending' })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    const winner = responses.find((response) => response.status === 201)?.body as Ticket;
    for (const loser of responses.filter((response) => response.status === 409)) {
      expect(errorInfo(loser.body)).toMatchObject({ uuid: winner.uuid, status: 'pending', userId: null });
    }
    expect(await kit.knex('tickets').where({ contactId }).count('* as n').first()).toEqual({ n: 1 });
  });

  it('refuses a contact, queue or user of another company', async () => {
    const other = await kit.company();
    const foreignContact = await kit.contact(other.companyId);
    const foreignQueue = await kit.queue(other.companyId);
    const contactId = await kit.contact(companyId);
    expect((await kit.call(admin, 'POST', '/tickets', { contactId: foreignContact })).body).toEqual({
      error: 'ERR_NO_CONTACT_FOUND',
    });
    expect((await kit.call(admin, 'POST', '/tickets', { contactId, queueId: foreignQueue })).body).toEqual({
      error: 'ERR_NO_QUEUE_FOUND',
    });
    const wrongUser = await kit.call(admin, 'POST', '/tickets', {
      contactId,
      queueId: q1,
      userId: other.admin.id,
      status: 'open',
    });
    expect(wrongUser).toEqual({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await kit.knex('tickets').where({ contactId }).count('* as n').first()).toEqual({ n: 0 });
  });

  it("takes the documented client's companyId when it is the caller's own, and refuses another company's", async () => {
    const other = await kit.company();
    const contactId = await kit.contact(companyId);
    const body = { contactId, queueId: q1, status: 'pending' };
    expect(await kit.call(admin, 'POST', '/tickets', { ...body, companyId: other.companyId })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_COMPANY_FOUND' },
    });
    const created = await kit.call<Ticket>(admin, 'POST', '/tickets', { ...body, companyId });
    expect(created.status).toBe(201);
    expect(await kit.knex('tickets').where({ id: created.body.id }).first('companyId')).toEqual({ companyId });
  });

  it('needs a queue and a contact with a number (a group is its own address)', async () => {
    const contactId = await kit.contact(companyId);
    expect(await kit.call(admin, 'POST', '/tickets', { contactId, status: 'open' })).toEqual({
      status: 400,
      body: { error: 'ERR_QUEUE_REQUIRED' },
    });
    expect(await kit.call(admin, 'POST', '/tickets', { contactId, queueId: null, status: 'open' })).toEqual({
      status: 400,
      body: { error: 'ERR_QUEUE_REQUIRED' },
    });
    for (const number of [null, '', '  ']) {
      const noNumber = await kit.contact(companyId, { number });
      expect(await kit.call(admin, 'POST', '/tickets', { contactId: noNumber, queueId: q1, status: 'open' })).toEqual({
        status: 400,
        body: { error: 'ERR_WAPP_INVALID_CONTACT' },
      });
      expect(await kit.knex('tickets').where({ contactId: noNumber }).count('* as n').first()).toEqual({ n: 0 });
    }
  });
});

describe('POST /tickets — the connection', () => {
  let company: { companyId: number; admin: KitUser };
  let queue: number;
  const connection = async (companyId: number, channel: string) => {
    const [row] = await kit
      .knex('whatsapps')
      .insert({ companyId, name: `${channel} ${companyId}`, channel, token: `tok${Math.random().toString(36).slice(2, 14)}` })
      .returning('id');
    return row.id as number;
  };

  beforeAll(async () => {
    company = await kit.company();
    queue = await kit.queue(company.companyId);
  });

  it("refuses another company's connection, leaving nothing behind", async () => {
    const other = await kit.company();
    const foreign = await connection(other.companyId, 'webchat');
    await connection(company.companyId, 'webchat');
    const contactId = await kit.contact(company.companyId);
    const agent = await kit.user(company.companyId, { queueIds: [queue] });
    for (const user of [company.admin, agent]) {
      const response = await kit.call(user, 'POST', '/tickets', {
        contactId,
        queueId: queue,
        status: 'open',
        whatsappId: foreign,
      });
      expect(response).toEqual({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    }
    expect(await kit.knex('tickets').where({ whatsappId: foreign }).count('* as n').first()).toEqual({ n: 0 });
  });

  it('needs a connection once the company has one, and one per conversation', async () => {
    const own = await connection(company.companyId, 'webchat');
    const contactId = await kit.contact(company.companyId);
    expect(await kit.call(company.admin, 'POST', '/tickets', { contactId, queueId: queue, status: 'open' })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_DEF_WAPP_FOUND' },
    });
    const first = await kit.call<Ticket>(company.admin, 'POST', '/tickets', {
      contactId,
      queueId: queue,
      status: 'open',
      whatsappId: own,
    });
    expect(first.status).toBe(201);
    expect(first.body.whatsappId).toBe(own);
    // another connection is another conversation
    const second = await connection(company.companyId, 'webchat');
    const elsewhere = await kit.call(company.admin, 'POST', '/tickets', {
      contactId,
      queueId: queue,
      status: 'open',
      whatsappId: second,
    });
    expect(elsewhere.status).toBe(201);
  });

  it("refuses a connection whose channel the company's plan lacks", async () => {
    const whatsapp = await connection(company.companyId, 'whatsapp');
    const contactId = await kit.contact(company.companyId);
    const planId = ((await kit.knex('companies').where({ id: company.companyId }).first('planId')) as { planId: number }).planId;
    await kit.knex('plans').where({ id: planId }).update({ useWhatsapp: false });
    await t.balcao.core.sessions.invalidatePlan(planId);
    const response = await kit.call(company.admin, 'POST', '/tickets', {
      contactId,
      queueId: queue,
      status: 'open',
      whatsappId: whatsapp,
    });
    expect(response).toEqual({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
  });

  it("doesn't ask for a connection the plan can't use", async () => {
    const lite = await kit.company();
    const liteQueue = await kit.queue(lite.companyId);
    await connection(lite.companyId, 'whatsapp');
    const planId = ((await kit.knex('companies').where({ id: lite.companyId }).first('planId')) as { planId: number }).planId;
    await kit.knex('plans').where({ id: planId }).update({ useWhatsapp: false });
    await t.balcao.core.sessions.invalidatePlan(planId);
    const contactId = await kit.contact(lite.companyId);
    const created = await kit.call(lite.admin, 'POST', '/tickets', { contactId, queueId: liteQueue, status: 'open' });
    expect(created.status).toBe(201);
  });
});

describe('PUT /tickets/:id — accept', () => {
  it('accepts a pending ticket: open, the user, unread 0, log open', async () => {
    const ticket = await kit.ticket(companyId, { status: 'pending', queueId: q1, unreadMessages: 4 });
    const response = await put(agent1, ticket.id, { status: 'open', userId: agent1.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'open', userId: agent1.id, queueId: q1, unreadMessages: 0 });
    expect(await kit.logs(ticket.id)).toEqual([{ type: 'open', userId: agent1.id, queueId: q1 }]);
  });

  it('needs a queue: the ticket’s or one in the body', async () => {
    const ticket = await kit.ticket(companyId, { status: 'pending' });
    expect(await put(admin, ticket.id, { status: 'open', userId: admin.id })).toEqual({
      status: 400,
      body: { error: 'ERR_QUEUE_REQUIRED' },
    });
    expect((await kit.row(ticket.id)).status).toBe('pending');
    const accepted = await put(admin, ticket.id, { status: 'open', userId: admin.id, queueId: q2 });
    expect(accepted.body).toMatchObject({ status: 'open', queueId: q2, userId: admin.id });
  });

  it('a group ticket becomes group', async () => {
    const agent = await kit.user(companyId, { queueIds: [q1], allowGroup: true });
    const ticket = await kit.ticket(companyId, { status: 'pending', queueId: q1, isGroup: true });
    expect((await put(agent, ticket.id, { status: 'open', userId: agent.id })).body).toMatchObject({ status: 'group' });
  });

  it('sends the accepted greeting with its variables when sendGreetingAccepted is on', async () => {
    const company = await kit.company();
    const queue = await kit.queue(company.companyId, 'Financeiro');
    const agent = await kit.user(company.companyId, { name: 'Rita Souza', queueIds: [queue] });
    const contactId = await kit.contact(company.companyId, { name: 'Pedro Alves' });
    const first = await kit.ticket(company.companyId, { contactId, status: 'pending', queueId: queue });
    await put(agent, first.id, { status: 'open', userId: agent.id });
    expect(await messagesOf(first.id)).toEqual([]);

    await kit.setting(company.companyId, 'sendGreetingAccepted', 'enabled');
    await kit.setting(
      company.companyId,
      'greetingAcceptedMessage',
      '{{ms}} {{firstName}}! Sou {{userName}}, da fila {{queue}}. Ticket {{ticket_id}} em {{date}}.',
    );
    const second = await kit.ticket(company.companyId, {
      status: 'pending',
      queueId: queue,
      contactId: await kit.contact(company.companyId, { name: 'Lia Reis' }),
    });
    const response = await put(agent, second.id, { status: 'open', userId: agent.id });
    expect(response.status).toBe(200);
    const [greeting] = await messagesOf(second.id);
    expect(greeting?.fromMe).toBe(true);
    expect(greeting?.body).toMatch(
      new RegExp(
        `^(Bom dia|Boa tarde|Boa noite) Lia! Sou Rita Souza, da fila Financeiro\\. Ticket ${second.id} em \\d{2}/\\d{2}/\\d{4}\\.$`,
      ),
    );
    expect(response.body.lastMessage).toBe(greeting?.body);
  });
});

describe('PUT /tickets/:id — return to queue, resolve, ignore', () => {
  it('returns an open ticket to the queue: pending, no user, log pending', async () => {
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
    const response = await put(agent1, ticket.id, { status: 'pending', userId: null });
    expect(response.body).toMatchObject({ status: 'pending', userId: null, queueId: q1 });
    expect(await kit.logs(ticket.id)).toEqual([{ type: 'pending', userId: agent1.id, queueId: q1 }]);
  });

  it('resolves: closed with closedAt, log closed; no farewell unless asked', async () => {
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
    const response = await put(agent1, ticket.id, { status: 'closed' });
    expect(response.body.status).toBe('closed');
    expect((await kit.row(ticket.id)).closedAt).toBeInstanceOf(Date);
    expect(await logTypes(ticket.id)).toEqual(['closed']);
    expect(await messagesOf(ticket.id)).toEqual([]);
  });

  it('sends the user’s farewell message with sendFarewellMessage', async () => {
    const contactId = await kit.contact(companyId, { name: 'Júlia Prado' });
    const ticket = await kit.ticket(companyId, { contactId, status: 'open', queueId: q1, userId: agent1.id });
    await put(agent1, ticket.id, { status: 'closed', sendFarewellMessage: true });
    expect(await messagesOf(ticket.id)).toEqual([{ body: 'Até logo, Júlia!', fromMe: true, userId: agent1.id }]);
    expect((await kit.row(ticket.id)).status).toBe('closed');
  });

  it("sends the product's default farewell, in the closer's language, when nobody wrote one", async () => {
    // agent2 has no farewell of their own, and the ticket's connection none either
    const ticket = await kit.ticket(companyId, {
      contactId: await kit.contact(companyId),
      status: 'open',
      queueId: q2,
      userId: agent2.id,
    });
    const res = await t.inject({
      method: 'PUT',
      url: `/api/tickets/${ticket.id}`,
      token: agent2.token,
      headers: { 'accept-language': 'es' },
      payload: { status: 'closed', sendFarewellMessage: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await messagesOf(ticket.id)).toEqual([{ body: DEFAULT_CUSTOMER_TEXTS.es.farewell, fromMe: true, userId: agent2.id }]);
    const other = await kit.ticket(companyId, {
      contactId: await kit.contact(companyId),
      status: 'open',
      queueId: q2,
      userId: agent2.id,
    });
    await put(agent2, other.id, { status: 'closed', sendFarewellMessage: true });
    expect(await messagesOf(other.id)).toEqual([{ body: DEFAULT_CUSTOMER_TEXTS.pt.farewell, fromMe: true, userId: agent2.id }]);
  });

  it('with requiredTag, refuses to resolve a ticket whose contact has no tag', async () => {
    const company = await kit.company();
    const agent = await kit.user(company.companyId);
    const contactId = await kit.contact(company.companyId);
    const ticket = await kit.ticket(company.companyId, { contactId, status: 'open', userId: agent.id });
    await kit.setting(company.companyId, 'requiredTag', 'enabled');
    expect(await put(agent, ticket.id, { status: 'closed' })).toEqual({
      status: 400,
      body: { error: 'ERR_TICKET_TAG_REQUIRED' },
    });
    expect((await kit.row(ticket.id)).status).toBe('open');
    expect(await kit.logs(ticket.id)).toEqual([]);
    await kit.tagContact(company.companyId, contactId, await kit.tag(company.companyId));
    expect((await put(agent, ticket.id, { status: 'closed' })).body.status).toBe('closed');
  });

  it('with ratings on, asks the contact unless the rating modal chose none; ratingId only on a resolve', async () => {
    const company = await kit.company();
    const agent = await kit.user(company.companyId, { farewellMessage: 'Tchau!' });
    const openTicket = () => kit.ticket(company.companyId, { status: 'open', userId: agent.id });
    await kit.setting(company.companyId, 'userRating', 'enabled');

    // no choice (an API client): the company's rule asks
    const plain = await openTicket();
    expect((await put(agent, plain.id, { status: 'closed' })).body.status).toBe('nps');
    const asked = await openTicket();
    expect((await put(agent, asked.id, { status: 'closed', ratingId: 'nps' })).body.status).toBe('nps');
    expect(await logTypes(asked.id)).toEqual(['nps']);

    const skipped = await openTicket();
    const closed = await put(agent, skipped.id, { status: 'closed', ratingId: 'none', sendFarewellMessage: true });
    expect(closed.body.status).toBe('closed');
    expect(await logTypes(skipped.id)).toEqual(['closed']);
    expect((await messagesOf(skipped.id)).map((message) => message.body)).toEqual(['Tchau!']);

    const refused = await openTicket();
    expect((await put(agent, refused.id, { status: 'closed', ratingId: 'maybe' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
    });
    expect(await put(agent, refused.id, { status: 'pending', userId: null, ratingId: 'nps' })).toEqual({
      status: 400,
      body: { error: 'ERR_VALIDATION', details: [{ field: 'body.ratingId', message: 'only with status closed' }] },
    });
    expect((await put(agent, refused.id, { ratingId: 'none' })).status).toBe(400);
    expect((await kit.row(refused.id)).status).toBe('open');
    expect(await kit.logs(refused.id)).toEqual([]);

    // ratings off: there is nothing to ask, the ticket closes whatever the choice
    await kit.setting(company.companyId, 'userRating', 'disabled');
    expect((await put(agent, refused.id, { status: 'closed', ratingId: 'nps' })).body.status).toBe('closed');
  });

  it('ignores a pending or lgpd ticket only with userClosePendingTicket or as admin', async () => {
    const strict = await kit.user(companyId, { queueIds: [q1], userClosePendingTicket: 'disabled' });
    const ignore = { status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 };
    const pending = await kit.ticket(companyId, { status: 'pending', queueId: q1 });
    expect(await put(strict, pending.id, ignore)).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await kit.row(pending.id)).status).toBe('pending');
    expect((await put(agent1, pending.id, ignore)).body.status).toBe('closed');
    expect(await kit.logs(pending.id)).toEqual([{ type: 'closed', userId: agent1.id, queueId: q1 }]);

    const lgpd = await kit.ticket(companyId, { status: 'lgpd', queueId: q1 });
    expect((await put(strict, lgpd.id, ignore)).status).toBe(403);
    const adminIgnores = await put(admin, lgpd.id, ignore);
    expect(adminIgnores.body).toMatchObject({ status: 'closed', amountUsedBotQueues: 0 });
  });
});

describe('PUT /tickets/:id — reopen', () => {
  it('reopens a closed ticket as the caller’s, log reopen; a group reopens as group', async () => {
    const ticket = await kit.ticket(companyId, { status: 'closed', queueId: q1, userId: agent2.id });
    await kit.knex('tickets').where({ id: ticket.id }).update({ closedAt: new Date() });
    const response = await put(admin, ticket.id, { status: 'open', userId: admin.id });
    expect(response.body).toMatchObject({ status: 'open', userId: admin.id });
    expect((await kit.row(ticket.id)).closedAt).toBeNull();
    expect(await kit.logs(ticket.id)).toEqual([{ type: 'reopen', userId: admin.id, queueId: q1 }]);

    const group = await kit.ticket(companyId, { status: 'closed', queueId: q1, isGroup: true, userId: admin.id });
    expect((await put(admin, group.id, { status: 'open', userId: admin.id })).body.status).toBe('group');
  });

  it('refuses while the contact has another active ticket on the connection, naming it', async () => {
    const contactId = await kit.contact(companyId);
    const old = await kit.ticket(companyId, { contactId, status: 'closed', queueId: q1, userId: agent1.id });
    const active = await kit.ticket(companyId, { contactId, status: 'pending', queueId: q2 });
    const response = await put(agent1, old.id, { status: 'open', userId: agent1.id });
    expect(response.status).toBe(409);
    expect(errorInfo(response.body)).toEqual({
      userId: null,
      userName: null,
      queueName: 'Suporte',
      uuid: active.uuid,
      status: 'pending',
    });
    expect((await kit.row(old.id)).status).toBe('closed');
    expect(await kit.logs(old.id)).toEqual([]);
  });
});

describe('PUT /tickets/:id — transfer', () => {
  it('to a user: open in the new queue, logs transfered and receivedTransfer, sends msgTransfer', async () => {
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
    const response = await put(agent1, ticket.id, {
      isTransfered: true,
      queueId: q2,
      userId: agent2.id,
      msgTransfer: 'Vou transferir você para o {{queue}}',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'open', queueId: q2, userId: agent2.id });
    expect(await kit.logs(ticket.id)).toEqual([
      { type: 'transfered', userId: agent1.id, queueId: q2 },
      { type: 'receivedTransfer', userId: agent2.id, queueId: q2 },
    ]);
    expect(await messagesOf(ticket.id)).toEqual([
      { body: 'Vou transferir você para o Suporte', fromMe: true, userId: agent1.id },
    ]);
    // the agent of the old queue no longer sees it
    expect((await kit.call(agent1, 'GET', `/tickets/${ticket.id}`)).status).toBe(404);
  });

  it("sends the company's transfer notice (sendMsgTransfTicket) before the agent's own message", async () => {
    await kit.setting(companyId, 'sendMsgTransfTicket', 'enabled');
    await kit.setting(companyId, 'transferMessage', 'Você foi transferido para a fila {{queue}}.');
    try {
      const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
      await put(agent1, ticket.id, { isTransfered: true, queueId: q2, msgTransfer: 'Um colega já vai te atender.' });
      expect((await messagesOf(ticket.id)).map((message) => message.body)).toEqual([
        'Você foi transferido para a fila Suporte.',
        'Um colega já vai te atender.',
      ]);
    } finally {
      await kit.setting(companyId, 'sendMsgTransfTicket', 'disabled');
    }
  });

  it('without a user: pending in the new queue; a group with a user becomes group', async () => {
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
    expect((await put(agent1, ticket.id, { isTransfered: true, queueId: q2 })).body).toMatchObject({
      status: 'pending',
      userId: null,
      queueId: q2,
    });
    expect(await logTypes(ticket.id)).toEqual(['transfered']);
    const group = await kit.ticket(companyId, { status: 'pending', queueId: q1, isGroup: true });
    expect((await put(admin, group.id, { isTransfered: true, queueId: q2, userId: agent2.id })).body.status).toBe('group');
  });

  it('needs a queue of the company and a user of the company', async () => {
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
    expect(await put(agent1, ticket.id, { isTransfered: true, userId: agent2.id })).toEqual({
      status: 400,
      body: { error: 'ERR_QUEUE_REQUIRED' },
    });
    const other = await kit.company();
    const foreignQueue = await kit.queue(other.companyId);
    expect((await put(agent1, ticket.id, { isTransfered: true, queueId: foreignQueue })).body).toEqual({
      error: 'ERR_NO_QUEUE_FOUND',
    });
    expect((await put(agent1, ticket.id, { isTransfered: true, queueId: q2, userId: other.admin.id })).body).toEqual({
      error: 'ERR_NO_USER_FOUND',
    });
    expect(await kit.row(ticket.id)).toMatchObject({ status: 'open', queueId: q1, userId: agent1.id });
  });
});

describe('PUT /tickets/:id — other fields and refusals', () => {
  it('sets useIntegration and amountUsedBotQueues', async () => {
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id });
    const response = await put(agent1, ticket.id, { useIntegration: true, amountUsedBotQueues: 3 });
    expect(response.body).toMatchObject({ useIntegration: true, amountUsedBotQueues: 3, status: 'open' });
    expect(await kit.logs(ticket.id)).toEqual([]);
  });

  it('404 for a ticket the caller may not see; lgpd/nps and unknown fields are refused', async () => {
    const ticket = await kit.ticket(companyId, { status: 'pending', queueId: q2 });
    expect(await put(agent1, ticket.id, { status: 'open', userId: agent1.id })).toEqual({
      status: 404,
      body: { error: 'ERR_NO_TICKET_FOUND' },
    });
    expect((await kit.row(ticket.id)).status).toBe('pending');
    expect((await put(admin, ticket.id, { status: 'lgpd' })).status).toBe(400);
    expect((await put(admin, ticket.id, { companyId: 1 })).status).toBe(400);
  });
});

describe('DELETE /tickets/:id and POST /tickets/closeAll', () => {
  it('deletes only with ticket-options:deleteTicket', async () => {
    const ticket = await kit.ticket(companyId, { status: 'pending', queueId: q1 });
    expect(await kit.call(agent1, 'DELETE', `/tickets/${ticket.id}`)).toEqual({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await kit.call(admin, 'DELETE', `/tickets/${ticket.id}`)).status).toBe(204);
    expect(await kit.knex('tickets').where({ id: ticket.id }).first()).toBeUndefined();
    expect((await kit.call(admin, 'DELETE', `/tickets/${ticket.id}`)).status).toBe(404);
  });

  it('closes the tickets of a status in the selected queues (all when none), logging closed', async () => {
    const company = await kit.company();
    const qa = await kit.queue(company.companyId);
    const qb = await kit.queue(company.companyId);
    const agent = await kit.user(company.companyId, { queueIds: [qa] });
    const inA = await kit.ticket(company.companyId, { status: 'pending', queueId: qa });
    const inB = await kit.ticket(company.companyId, { status: 'pending', queueId: qb });
    const open = await kit.ticket(company.companyId, { status: 'open', queueId: qa, userId: agent.id });
    const elsewhere = await kit.ticket(companyId, { status: 'pending', queueId: q1 });

    expect((await kit.call(agent, 'POST', '/tickets/closeAll', { status: 'pending' })).status).toBe(403);
    expect(
      (await kit.call(company.admin, 'POST', '/tickets/closeAll', { status: 'pending', selectedQueueIds: [qa] })).body,
    ).toEqual({
      closed: 1,
    });
    expect((await kit.row(inA.id)).status).toBe('closed');
    expect((await kit.row(inA.id)).closedAt).toBeInstanceOf(Date);
    expect((await kit.row(inB.id)).status).toBe('pending');
    expect(await kit.logs(inA.id)).toEqual([{ type: 'closed', userId: company.admin.id, queueId: qa }]);

    expect(
      (await kit.call(company.admin, 'POST', '/tickets/closeAll', { status: 'pending', selectedQueueIds: [] })).body,
    ).toEqual({
      closed: 1,
    });
    expect((await kit.row(inB.id)).status).toBe('closed');
    expect((await kit.row(open.id)).status).toBe('open');
    expect((await kit.row(elsewhere.id)).status).toBe('pending');
  });
});

describe('GET /tickets-log/:ticketId', () => {
  it('lists the log newest first with user and queue refs, for visible tickets only', async () => {
    const created = await kit.call<Ticket>(agent1, 'POST', '/tickets', {
      contactId: await kit.contact(companyId),
      queueId: q1,
      status: 'open',
    });
    await put(agent1, created.body.id, { isTransfered: true, queueId: q2, userId: agent2.id });
    const log = await kit.call<TicketLog[]>(agent2, 'GET', `/tickets-log/${created.body.id}`);
    expect(log.status).toBe(200);
    expect(log.body.map((entry) => entry.type)).toEqual(['receivedTransfer', 'transfered', 'open', 'create']);
    expect(log.body[0]).toMatchObject({
      ticketId: created.body.id,
      user: { id: agent2.id, name: 'Bruno' },
      queue: { id: q2, name: 'Suporte', color: '#112233' },
    });
    expect(log.body[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await kit.call(agent1, 'GET', `/tickets-log/${created.body.id}`)).status).toBe(404);
  });
});

describe('another company', () => {
  it('gets 404 for every ticket id of this one, and changes nothing', async () => {
    const other = await kit.company();
    const otherAgent = await kit.user(other.companyId);
    const ticket = await kit.ticket(companyId, { status: 'open', queueId: q1, userId: agent1.id, lastMessage: 'secret' });
    const before = await kit.row(ticket.id);
    for (const user of [other.admin, otherAgent]) {
      expect((await kit.call(user, 'GET', `/tickets/${ticket.id}`)).status).toBe(404);
      expect((await kit.call(user, 'GET', `/tickets/u/${ticket.uuid}`)).status).toBe(404);
      expect((await kit.call(user, 'GET', `/tickets-log/${ticket.id}`)).status).toBe(404);
      expect((await put(user, ticket.id, { status: 'closed' })).status).toBe(404);
      expect((await put(user, ticket.id, { isTransfered: true, queueId: q1 })).status).toBe(404);
    }
    expect((await kit.call(other.admin, 'DELETE', `/tickets/${ticket.id}`)).status).toBe(404);
    expect((await kit.call(other.admin, 'POST', '/tickets', { contactId: ticket.contactId })).status).toBe(404);
    expect((await kit.call(other.admin, 'POST', '/tickets/closeAll', { status: 'open', selectedQueueIds: [q1] })).body).toEqual({
      closed: 0,
    });
    // filters naming this company's queues or users are refused; the search alone finds nothing
    const filtered = await kit.list(other.admin, { showAll: true, queueIds: [q1], users: [agent1.id], searchParam: 'secret' });
    expect(filtered.status).toBe(404);
    expect((await kit.list(other.admin, { showAll: true, users: [agent1.id] })).body).toEqual({ error: 'ERR_NO_USER_FOUND' });
    const list = await kit.list(other.admin, { showAll: true, searchParam: 'secret' });
    expect(list.body).toEqual({ tickets: [], hasMore: false, count: 0 });
    expect((await kit.list(other.admin, { searchParam: String(ticket.id) })).body.count).toBe(0);
    expect(await kit.row(ticket.id)).toEqual(before);
  });
});
