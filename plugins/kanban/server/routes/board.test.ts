import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KanbanKit } from '../testing/kit';

/** The board's reads: GET /tag/kanban and GET /ticket/kanban (docs/product/administration.md#calls-and-realtime-events), and the plan gate. */
let t: TestApp;
let kit: KanbanKit;

beforeAll(async () => {
  t = await createTestApp();
  kit = new KanbanKit(t);
});
afterAll(async () => {
  await t?.close();
});

describe('the plan gate', () => {
  it('refuses every board route with 403 ERR_PLAN_FEATURE_DISABLED for a company without useKanban', async () => {
    const { admin } = await kit.company({ kanban: false });
    for (const url of ['/api/tag/kanban', '/api/ticket/kanban', '/api/kanban-embed-keys']) {
      const res = await t.inject({ method: 'GET', url, token: admin.token });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    }
  });

  it('lets the same company in once its plan gains useKanban', async () => {
    const { companyId, admin } = await kit.company({ kanban: false });
    const planId = (await kit.knex('companies').where({ id: companyId }).first('planId')).planId;
    await kit.knex('plans').where({ id: planId }).update({ useKanban: true });
    await kit.ctx.session.invalidateCompany(companyId);
    const res = await t.inject({ method: 'GET', url: '/api/tag/kanban', token: admin.token });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /tag/kanban', () => {
  it('lists only the kanban tags of the company, by name, with their fields and ticket counts', async () => {
    const { companyId, admin } = await kit.company();
    const later = await kit.lane(companyId, { name: 'Zeta' });
    const first = await kit.lane(companyId, { name: 'Alfa', timeLane: 5, nextLaneId: later, greetingMessageLane: 'Oi' });
    await kit.plainTag(companyId);
    const ticket = await kit.ticket(companyId);
    await kit.knex('ticketTags').insert({ companyId, ticketId: ticket.id, tagId: first });
    const other = await kit.company();
    await kit.lane(other.companyId, { name: 'Other company lane' });

    const res = await t.inject({ method: 'GET', url: '/api/tag/kanban', token: admin.token });
    expect(res.statusCode).toBe(200);
    const { lista } = res.json();
    expect(lista.map((lane: { name: string }) => lane.name)).toEqual(['Alfa', 'Zeta']);
    expect(lista[0]).toMatchObject({
      id: first,
      kanban: 1,
      timeLane: 5,
      nextLaneId: later,
      greetingMessageLane: 'Oi',
      ticketTags: 1,
    });
    expect(lista[1]).toMatchObject({ id: later, ticketTags: 0 });
  });
});

describe('GET /ticket/kanban', () => {
  it('answers the cards with every documented field and the lane each sits in', async () => {
    const { companyId, admin } = await kit.company();
    const queue = await kit.queue(companyId);
    const lane = await kit.lane(companyId);
    const plain = await kit.plainTag(companyId);
    const inLane = await kit.ticket(companyId, { queueId: queue, userId: admin.id, lastMessage: 'Quero um orçamento' });
    const noLane = await kit.ticket(companyId, { queueId: queue });
    const closed = await kit.ticket(companyId, { queueId: queue, status: 'closed' });
    await kit.knex('ticketTags').insert([
      { companyId, ticketId: inLane.id, tagId: lane },
      { companyId, ticketId: inLane.id, tagId: plain },
    ]);

    const res = await t.inject({ method: 'GET', url: '/api/ticket/kanban', token: admin.token });
    expect(res.statusCode).toBe(200);
    const { tickets } = res.json();
    const ids = tickets.map((card: { id: number }) => card.id);
    expect(ids).toContain(inLane.id);
    expect(ids).toContain(noLane.id);
    expect(ids).not.toContain(closed.id);
    const card = tickets.find((candidate: { id: number }) => candidate.id === inLane.id);
    expect(card).toMatchObject({
      uuid: inLane.uuid,
      lastMessage: 'Quero um orçamento',
      unreadMessages: 0,
      channel: 'whatsapp',
      whatsapp: null,
      user: { id: admin.id },
      laneId: lane,
    });
    expect(card.contact).toMatchObject({ id: inLane.contactId, name: expect.any(String), number: expect.stringMatching(/^55/) });
    expect(card.tags.map((tag: { id: number }) => tag.id).sort()).toEqual([lane, plain].sort());
    expect(new Date(card.updatedAt).toString()).not.toBe('Invalid Date');
    expect(tickets.find((candidate: { id: number }) => candidate.id === noLane.id).laneId).toBeNull();
  });

  it('shows an agent only the tickets of their queues and their own, and filters by queueIds and dates', async () => {
    const { companyId } = await kit.company();
    const mine = await kit.queue(companyId);
    const others = await kit.queue(companyId);
    const agent = await kit.user(companyId, { queueIds: [mine] });
    const inMyQueue = await kit.ticket(companyId, { queueId: mine });
    const ofOtherQueue = await kit.ticket(companyId, { queueId: others });
    const assignedToMe = await kit.ticket(companyId, { queueId: others, userId: agent.id });
    const old = await kit.ticket(companyId, { queueId: mine, createdAt: new Date('2020-01-15T12:00:00Z') });

    const all = (await t.inject({ method: 'GET', url: '/api/ticket/kanban', token: agent.token })).json().tickets;
    const ids = all.map((card: { id: number }) => card.id);
    expect(ids).toEqual(expect.arrayContaining([inMyQueue.id, assignedToMe.id, old.id]));
    expect(ids).not.toContain(ofOtherQueue.id);

    const byQueue = await t.inject({
      method: 'GET',
      url: `/api/ticket/kanban?queueIds=${encodeURIComponent(JSON.stringify([others]))}`,
      token: agent.token,
    });
    expect(byQueue.json().tickets.map((card: { id: number }) => card.id)).toEqual([assignedToMe.id]);

    const january = await t.inject({
      method: 'GET',
      url: '/api/ticket/kanban?startDate=2020-01-01&endDate=2020-01-15',
      token: agent.token,
    });
    expect(january.json().tickets.map((card: { id: number }) => card.id)).toEqual([old.id]);
  });

  it('masks contact numbers for profile users when the company hides them (LGPD), not for admins', async () => {
    const { companyId, admin } = await kit.company();
    const queue = await kit.queue(companyId);
    const agent = await kit.user(companyId, { queueIds: [queue] });
    const ticket = await kit.ticket(companyId, { queueId: queue });
    const number = (await kit.knex('contacts').where({ id: ticket.contactId }).first('number')).number as string;
    await kit.ctx.settings.set(companyId, 'enableLGPD', 'enabled');
    await kit.ctx.settings.set(companyId, 'lgpdHideNumber', 'enabled');
    const numberFor = async (token: string) =>
      (await t.inject({ method: 'GET', url: '/api/ticket/kanban', token }))
        .json()
        .tickets.find((card: { id: number }) => card.id === ticket.id).contact.number;
    expect(await numberFor(agent.token)).toBe(`${'*'.repeat(number.length - 2)}${number.slice(-2)}`);
    expect(await numberFor(admin.token)).toBe(number);
  });

  it('orders the cards by last activity, newest first', async () => {
    const { companyId, admin } = await kit.company();
    const days = [3, 1, 2];
    const made = [];
    for (const day of days) made.push(await kit.ticket(companyId, { createdAt: new Date(`2024-05-0${day}T12:00:00Z`) }));
    const ids = (await t.inject({ method: 'GET', url: '/api/ticket/kanban', token: admin.token }))
      .json()
      .tickets.map((card: { id: number }) => card.id);
    expect(ids).toEqual([made[0]?.id, made[2]?.id, made[1]?.id]);
  });

  it('refuses bad filters with 400 ERR_VALIDATION', async () => {
    const { admin } = await kit.company();
    for (const query of ['queueIds=1,2', 'startDate=2020-13-01', 'startDate=2020-02-01&endDate=2020-01-01', 'queueIds=[0]']) {
      const res = await t.inject({ method: 'GET', url: `/api/ticket/kanban?${query}`, token: admin.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
  });
});
