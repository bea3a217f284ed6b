import { runInTenant } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KanbanKit } from '../testing/kit';
import { fireLaneTimer, MINUTE_MS, setLaneTimer, sweepLaneTimers } from './lanes.service';
import { kanbanChannel } from './live';

/** Lane moves and the lane automation (docs/kanban.md "Lane automation"). */
let t: TestApp;
let kit: KanbanKit;

beforeAll(async () => {
  t = await createTestApp();
  kit = new KanbanKit(t);
});
afterAll(async () => {
  await t?.close();
});

const placementOf = (ticketId: number) => kit.knex('kanbanPlacements').where({ ticketId }).first();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}

describe('a move on the board (DELETE then PUT)', () => {
  it('changes the lane, records the entry and writes one log entry under the mover', async () => {
    const { companyId, admin } = await kit.company();
    const from = await kit.lane(companyId);
    const to = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    await kit.boardMove(admin.token, ticket.id, from);
    expect(await kit.lanesOf(ticket.id)).toEqual([from]);
    expect((await placementOf(ticket.id))?.laneId).toBe(from);
    expect(await kit.laneLogs(ticket.id)).toHaveLength(1);

    await kit.boardMove(admin.token, ticket.id, to);
    expect(await kit.lanesOf(ticket.id)).toEqual([to]);
    expect((await placementOf(ticket.id))?.laneId).toBe(to);
    const logs = await kit.laneLogs(ticket.id);
    expect(logs).toHaveLength(2);
    expect(logs.every((log: { userId: number }) => log.userId === admin.id)).toBe(true);

    // to the default lane: only the DELETE; the entry is gone and the move is logged
    await kit.boardMove(admin.token, ticket.id, null);
    expect(await kit.lanesOf(ticket.id)).toEqual([]);
    expect(await placementOf(ticket.id)).toBeUndefined();
    expect(await kit.laneLogs(ticket.id)).toHaveLength(3);
  });

  it('logs a move right after another one by the same user, and each of several tickets', async () => {
    const { companyId, admin } = await kit.company();
    const a = await kit.lane(companyId);
    const b = await kit.lane(companyId);
    const first = await kit.ticket(companyId);
    const second = await kit.ticket(companyId);
    await kit.knex('ticketTags').insert({ companyId, ticketId: first.id, tagId: a });
    await kit.boardMove(admin.token, first.id, b);
    await kit.boardMove(admin.token, second.id, a);
    expect(await kit.laneLogs(first.id)).toHaveLength(1);
    expect(await kit.laneLogs(second.id)).toHaveLength(1);
  });

  it('sends the lane greeting to the contact on entering a lane', async () => {
    const { companyId, admin } = await kit.company();
    const lane = await kit.lane(companyId, { greetingMessageLane: 'Bem-vindo à etapa de proposta!' });
    const quiet = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    await kit.boardMove(admin.token, ticket.id, quiet);
    expect(await kit.knex('messages').where({ ticketId: ticket.id })).toHaveLength(0);
    await kit.boardMove(admin.token, ticket.id, lane);
    const messages = await kit.knex('messages').where({ ticketId: ticket.id });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ body: 'Bem-vindo à etapa de proposta!', fromMe: true });
  });

  it('leaves plain tags alone and does nothing for them', async () => {
    const { companyId, admin } = await kit.company();
    const plain = await kit.plainTag(companyId);
    const ticket = await kit.ticket(companyId);
    const res = await t.inject({ method: 'PUT', url: `/api/ticket-tags/${ticket.id}/${plain}`, token: admin.token });
    expect(res.statusCode).toBe(204);
    expect(await placementOf(ticket.id)).toBeUndefined();
    expect(await kit.laneLogs(ticket.id)).toHaveLength(0);
  });
});

describe('who hears of a move (company-{id}-kanban)', () => {
  it('reaches only the users who may see the ticket, as the inbox decides', async () => {
    const { companyId, admin } = await kit.company();
    const queue = await kit.queue(companyId);
    const agent = await kit.user(companyId, { queueIds: [queue] });
    const lane = await kit.lane(companyId);
    // the admin's own ticket: the agent can't see it; a waiting ticket of the agent's queue: they can
    const hidden = await kit.ticket(companyId, { queueId: queue, userId: admin.id });
    const shown = await kit.ticket(companyId, { queueId: queue, status: 'pending' });
    const url = await t.listen();
    const socket = await connectSocket(url, companyId, agent.token);
    const adminSocket = await connectSocket(url, companyId, admin.token);
    const heard: number[] = [];
    const adminHeard: number[] = [];
    socket.on(kanbanChannel(companyId), (payload: { ticketId: number }) => heard.push(payload.ticketId));
    adminSocket.on(kanbanChannel(companyId), (payload: { ticketId: number }) => adminHeard.push(payload.ticketId));
    try {
      await kit.boardMove(admin.token, hidden.id, lane);
      await kit.boardMove(admin.token, shown.id, lane);
      await until(
        async () => heard.length + adminHeard.length,
        () => heard.includes(shown.id) && adminHeard.includes(shown.id) && adminHeard.includes(hidden.id),
        5_000,
      );
      expect(adminHeard).toContain(hidden.id);
      expect(adminHeard).toContain(shown.id);
      expect(heard).toContain(shown.id);
      expect(heard).not.toContain(hidden.id);
    } finally {
      socket.close();
      adminSocket.close();
    }
  });
});

describe('the lane timer (timeLane → nextLaneId)', () => {
  it('sets a delayed job when a card enters a lane with timeLane and nextLaneId, and it moves the card once when due', async () => {
    const { companyId, admin } = await kit.company();
    const next = await kit.lane(companyId, { greetingMessageLane: 'Passando para saber se ainda podemos ajudar.' });
    const timed = await kit.lane(companyId, { timeLane: 1, nextLaneId: next });
    const ticket = await kit.ticket(companyId);
    await kit.boardMove(admin.token, ticket.id, timed);
    const entered = await placementOf(ticket.id);
    expect(entered.laneId).toBe(timed);

    // the real one-minute timer is pending; make this entry one that is due in 1.5 s and set its timer
    // the way the move did (a real delayed job on the real queue)
    await kit
      .knex('kanbanPlacements')
      .where({ ticketId: ticket.id })
      .update({
        enteredAt: new Date(Date.now() - MINUTE_MS + 1_500),
        entryId: kit.knex.raw('gen_random_uuid()'),
      });
    const shortened = await placementOf(ticket.id);
    const setAt = Date.now();
    await setLaneTimer(kit.ctx, companyId, ticket.id, shortened, { timeLane: 1, nextLaneId: next });

    await sleep(700);
    expect(await kit.lanesOf(ticket.id)).toEqual([timed]);
    const lanes = await until(
      () => kit.lanesOf(ticket.id),
      (ids) => ids[0] === next,
      10_000,
    );
    expect(lanes).toEqual([next]);
    expect(Date.now() - setAt).toBeGreaterThanOrEqual(1_400);

    // moved by the automation: a log entry without a user, the next lane's greeting, a new entry (the job
    // writes them right after the move's transaction)
    const logs = await until(
      () => kit.laneLogs(ticket.id),
      (rows) => rows.length >= 2,
      5_000,
    );
    expect(logs).toHaveLength(2);
    expect(logs[1].userId).toBeNull();
    // the greeting is sent after the log entry is written: wait for it rather than race it
    const bodies = await until(
      async () => (await kit.knex('messages').where({ ticketId: ticket.id })).map((m: { body: string }) => m.body),
      (rows) => rows.length >= 1,
      5_000,
    );
    expect(bodies).toEqual(['Passando para saber se ainda podemos ajudar.']);
    expect((await placementOf(ticket.id)).laneId).toBe(next);

    // exactly once: the stale entries' timers (the first move's, this one's again) and a sweep change nothing
    const fire = (entryId: string) => runInTenant({ companyId }, () => fireLaneTimer(kit.ctx, companyId, ticket.id, entryId));
    expect(await fire(entered.entryId)).toBe(false);
    expect(await fire(shortened.entryId)).toBe(false);
    await sweepLaneTimers(kit.ctx);
    expect(await kit.lanesOf(ticket.id)).toEqual([next]);
    expect(await kit.laneLogs(ticket.id)).toHaveLength(2);
  }, 20_000);

  it('does not fire before the time: a timer that runs early leaves the card where it is', async () => {
    const { companyId, admin } = await kit.company();
    const next = await kit.lane(companyId);
    const timed = await kit.lane(companyId, { timeLane: 30, nextLaneId: next });
    const ticket = await kit.ticket(companyId);
    await kit.boardMove(admin.token, ticket.id, timed);
    const entry = await placementOf(ticket.id);
    expect(await runInTenant({ companyId }, () => fireLaneTimer(kit.ctx, companyId, ticket.id, entry.entryId))).toBe(false);
    expect(await kit.lanesOf(ticket.id)).toEqual([timed]);
  });

  it('is caught up by the sweep when its job is gone (after a restart that lost Redis, say), once', async () => {
    const { companyId, admin } = await kit.company();
    const next = await kit.lane(companyId);
    const timed = await kit.lane(companyId, { timeLane: 2, nextLaneId: next });
    const ticket = await kit.ticket(companyId);
    await kit.boardMove(admin.token, ticket.id, timed);
    await kit
      .knex('kanbanPlacements')
      .where({ ticketId: ticket.id })
      .update({ enteredAt: new Date(Date.now() - 3 * MINUTE_MS) });

    const [first, second] = await Promise.all([sweepLaneTimers(kit.ctx), sweepLaneTimers(kit.ctx)]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    expect(await kit.lanesOf(ticket.id)).toEqual([next]);
    expect(await kit.laneLogs(ticket.id)).toHaveLength(2);
    await sweepLaneTimers(kit.ctx);
    expect(await kit.laneLogs(ticket.id)).toHaveLength(2);
  });

  it('skips companies whose plan lost useKanban', async () => {
    const { companyId, admin } = await kit.company();
    const next = await kit.lane(companyId);
    const timed = await kit.lane(companyId, { timeLane: 1, nextLaneId: next });
    const ticket = await kit.ticket(companyId);
    await kit.boardMove(admin.token, ticket.id, timed);
    await kit
      .knex('kanbanPlacements')
      .where({ ticketId: ticket.id })
      .update({ enteredAt: new Date(Date.now() - 2 * MINUTE_MS) });
    const planId = (await kit.knex('companies').where({ id: companyId }).first('planId')).planId;
    await kit.knex('plans').where({ id: planId }).update({ useKanban: false });
    await kit.ctx.session.invalidateCompany(companyId);
    await sweepLaneTimers(kit.ctx);
    expect(await kit.lanesOf(ticket.id)).toEqual([timed]);
  });
});

/** Messages of one contact of the company (a number of its own), as a WhatsApp driver reports them. */
function contactOf(companyId: number, prefix: string) {
  const number = `${prefix}${String(Date.now() % 1e6).padStart(6, '0')}`;
  return (id: string) => ({
    companyId,
    whatsappId: 7,
    channel: 'whatsapp',
    contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: 'Cliente' },
    message: { id, body: `mensagem ${id}` },
  });
}

describe('the rollback lane', () => {
  it("moves the card to the lane's rollbackLaneId when the contact answers, once per answer", async () => {
    const { companyId, admin } = await kit.company();
    const working = await kit.lane(companyId);
    const waiting = await kit.lane(companyId, { rollbackLaneId: working });
    const inbox = kit.ctx.services.use('inbox');
    const inbound = contactOf(companyId, '5511977');
    const first = await inbox.receive(inbound('a1'));
    await kit.boardMove(admin.token, first.ticketId, waiting);
    expect(await kit.lanesOf(first.ticketId)).toEqual([waiting]);

    await inbox.receive(inbound('a2'));
    expect(await kit.lanesOf(first.ticketId)).toEqual([working]);
    const logs = await kit.laneLogs(first.ticketId);
    expect(logs).toHaveLength(2);
    expect(logs[1].userId).toBeNull();

    // the working lane has no rollback: a later answer leaves the card there
    await inbox.receive(inbound('a3'));
    expect(await kit.lanesOf(first.ticketId)).toEqual([working]);
  });

  it('applies a rollback given to a lane after the company was known to have none', async () => {
    const { companyId, admin } = await kit.company();
    const working = await kit.lane(companyId);
    const waiting = await kit.lane(companyId);
    const inbox = kit.ctx.services.use('inbox');
    const inbound = contactOf(companyId, '5511966');
    const first = await inbox.receive(inbound('b1'));
    await kit.boardMove(admin.token, first.ticketId, waiting);
    // an answer while no lane has a rollback: the card stays
    await inbox.receive(inbound('b2'));
    expect(await kit.lanesOf(first.ticketId)).toEqual([waiting]);
    const edited = await t.inject({
      method: 'PUT',
      url: `/api/tags/${waiting}`,
      token: admin.token,
      payload: { name: 'Aguardando', kanban: 1, rollbackLaneId: working },
    });
    expect(edited.statusCode).toBe(200);
    await inbox.receive(inbound('b3'));
    expect(await kit.lanesOf(first.ticketId)).toEqual([working]);
  });
});
