import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KanbanKit, randomOrigin } from '../testing/kit';

/**
 * The board's pages (docs/kanban.md "Pages"): `perLane` (every lane's first cards and counts) and `lane` +
 * `offset` + `limit` (a slice of one lane) give, put together, exactly the whole board's answer; bad mixes
 * are refused; answers carry an ETag and an unchanged one is a 304. The same paging on the embed board.
 */
let t: TestApp;
let kit: KanbanKit;

beforeAll(async () => {
  t = await createTestApp();
  kit = new KanbanKit(t);
});
afterAll(async () => {
  await t?.close();
});

interface Card {
  id: number;
  laneId: number | null;
  [field: string]: unknown;
}
interface LaneCount {
  laneId: number | null;
  count: number;
}

const get = async (url: string, token: string, headers: Record<string, string> = {}) => {
  const res = await t.inject({ method: 'GET', url, token, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as { tickets: Card[]; laneCounts?: LaneCount[] };
};

/** The whole board's cards by lane, in its order (newest activity first). */
function byLane(cards: Card[]): Map<number | null, Card[]> {
  const lanes = new Map<number | null, Card[]>();
  for (const card of cards) lanes.set(card.laneId, [...(lanes.get(card.laneId) ?? []), card]);
  return lanes;
}

/**
 * Reads the board page by page as the UI does (the first `perLane` cards of every lane, then pages of
 * `limit` of each lane) and checks that it is the whole board's answer, card for card and count for count.
 */
async function expectPagesToMatchWhole(token: string, laneIds: Array<number | null>, query = '') {
  const whole = byLane((await get(`/api/ticket/kanban?${query}`, token)).tickets);
  const head = await get(`/api/ticket/kanban?perLane=2&${query}`, token);
  expect(head.laneCounts).toEqual(laneIds.map((laneId) => ({ laneId, count: whole.get(laneId)?.length ?? 0 })));
  const first = byLane(head.tickets);
  for (const laneId of laneIds) {
    const cards = [...(first.get(laneId) ?? [])];
    expect(cards).toEqual((whole.get(laneId) ?? []).slice(0, 2));
    for (let offset = 2; offset < (whole.get(laneId)?.length ?? 0); offset += 3) {
      const page = await get(`/api/ticket/kanban?lane=${laneId ?? 'default'}&offset=${offset}&limit=3&${query}`, token);
      expect(page.laneCounts).toEqual([{ laneId, count: whole.get(laneId)?.length ?? 0 }]);
      cards.push(...page.tickets);
    }
    expect(cards, `lane ${laneId}`).toEqual(whole.get(laneId) ?? []);
  }
}

/** A company with lanes A < B < C (C empty), a plain tag, and tickets in each lane and the default lane. */
async function board() {
  const { companyId, admin } = await kit.company();
  const queue = await kit.queue(companyId);
  const other = await kit.queue(companyId);
  const a = await kit.lane(companyId, { name: 'A' });
  const b = await kit.lane(companyId, { name: 'B' });
  const c = await kit.lane(companyId, { name: 'C' });
  const plain = await kit.plainTag(companyId);
  const lanes: Array<number | null> = [a, a, a, a, a, a, a, b, b, b, b, null, null, null];
  let minute = 0;
  const tickets = [];
  for (const lane of lanes) {
    minute += 1;
    const ticket = await kit.ticket(companyId, {
      queueId: minute % 3 === 0 ? other : queue,
      createdAt: new Date(Date.UTC(2024, 4, 1, 12, minute)),
    });
    if (lane !== null) await kit.knex('ticketTags').insert({ companyId, ticketId: ticket.id, tagId: lane });
    if (minute % 4 === 0) await kit.knex('ticketTags').insert({ companyId, ticketId: ticket.id, tagId: plain });
    tickets.push(ticket);
  }
  // on two lanes: it shows in the one it entered last (b), not its lowest (a)
  const both = await kit.ticket(companyId, { queueId: queue, createdAt: new Date(Date.UTC(2024, 4, 2)) });
  await kit.knex('ticketTags').insert([
    { companyId, ticketId: both.id, tagId: a },
    { companyId, ticketId: both.id, tagId: b },
  ]);
  await kit.knex('kanbanPlacements').insert({ companyId, ticketId: both.id, laneId: b });
  return { companyId, admin, queue, a, b, c, both, tickets };
}

describe('GET /ticket/kanban in pages', () => {
  it('gives, lane by lane, exactly the cards and lanes of the whole board', async () => {
    const { admin, a, b, c, both } = await board();
    await expectPagesToMatchWhole(admin.token, [null, a, b, c]);
    const head = await get('/api/ticket/kanban?perLane=1', admin.token);
    // the newest card of lane b is the ticket on two lanes, shown where it entered last
    expect(head.tickets.find((card) => card.laneId === b)?.id).toBe(both.id);
    expect(head.tickets.filter((card) => card.id === both.id)).toHaveLength(1);
    expect(head.laneCounts).toEqual([
      { laneId: null, count: 3 },
      { laneId: a, count: 7 },
      { laneId: b, count: 5 },
      { laneId: c, count: 0 },
    ]);
  });

  it('applies visibility, filters and the LGPD mask as the whole board does', async () => {
    const { companyId, queue, a, b, c } = await board();
    const agent = await kit.user(companyId, { queueIds: [queue] });
    await kit.ctx.settings.set(companyId, 'enableLGPD', 'enabled');
    await kit.ctx.settings.set(companyId, 'lgpdHideNumber', 'enabled');
    await expectPagesToMatchWhole(agent.token, [null, a, b, c]);
    const masked = (await get('/api/ticket/kanban?perLane=1', agent.token)).tickets[0] as unknown as {
      contact: { number: string };
    };
    expect(masked.contact.number).toMatch(/^\*+\d{2}$/);
    await expectPagesToMatchWhole(agent.token, [null, a, b, c], `queueIds=${encodeURIComponent(JSON.stringify([queue]))}`);
    await expectPagesToMatchWhole(agent.token, [null, a, b, c], 'startDate=2024-05-01&endDate=2024-05-01');
  });

  it('answers an empty slice past a lane’s end, and an unknown lane with no count', async () => {
    const { admin, a } = await board();
    expect(await get(`/api/ticket/kanban?lane=${a}&offset=100&limit=5`, admin.token)).toEqual({
      tickets: [],
      laneCounts: [{ laneId: a, count: 7 }],
    });
    expect(await get('/api/ticket/kanban?lane=2147483000&offset=0&limit=5', admin.token)).toEqual({
      tickets: [],
      laneCounts: [],
    });
  });

  it('refuses paging parameters that mean nothing with 400 ERR_VALIDATION', async () => {
    const { admin } = await kit.company();
    for (const query of [
      'perLane=0',
      'perLane=501',
      'offset=5',
      'limit=5',
      'lane=7',
      'lane=7&perLane=5&limit=5',
      'lane=abc&limit=5',
      'lane=0&limit=5',
      'lane=default&offset=-1&limit=5',
      'lane=9999999999&limit=5',
    ]) {
      const res = await t.inject({ method: 'GET', url: `/api/ticket/kanban?${query}`, token: admin.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toBe('ERR_VALIDATION');
    }
  });
});

describe('conditional requests', () => {
  it('tags every board answer, answers 304 while it is unchanged and 200 once a card moves', async () => {
    const { admin, a, b, tickets } = await board();
    for (const url of ['/api/ticket/kanban', '/api/ticket/kanban?perLane=5', `/api/ticket/kanban?lane=${a}&offset=0&limit=5`]) {
      const first = await t.inject({ method: 'GET', url, token: admin.token });
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const again = await t.inject({ method: 'GET', url, token: admin.token, headers: { 'if-none-match': etag } });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
      const weak = await t.inject({ method: 'GET', url, token: admin.token, headers: { 'if-none-match': `"x", W/${etag}` } });
      expect(weak.statusCode, url).toBe(304);
    }
    const before = await t.inject({ method: 'GET', url: '/api/ticket/kanban?perLane=5', token: admin.token });
    await kit.boardMove(admin.token, (tickets[0] as { id: number }).id, b);
    const after = await t.inject({
      method: 'GET',
      url: '/api/ticket/kanban?perLane=5',
      token: admin.token,
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('the embed board in pages', () => {
  it("pages a key's lanes only, with their counts, and refuses the lanes it doesn't show", async () => {
    const { admin, a, b } = await board();
    const origin = randomOrigin();
    const created = await t.inject({
      method: 'POST',
      url: '/api/kanban-embed-keys',
      token: admin.token,
      payload: { name: 'Site', allowedOrigins: [origin], mayMove: false, signedUsers: false, laneIds: [a] },
    });
    const key = created.json().key as string;
    const embed = (query: string) =>
      t.inject({ method: 'GET', url: `/api/kanban-embed/${key}/board?${query}`, headers: { origin } });
    const whole = (await embed('')).json();
    const head = (await embed('perLane=3')).json();
    // the ticket on lanes a and b shows in a here: b is not one of the key's lanes
    expect(head.laneCounts).toEqual([{ laneId: a, count: 8 }]);
    expect(head.tickets).toEqual(whole.tickets.slice(0, 3));
    expect(head.lanes).toEqual(whole.lanes);
    const page = await embed(`lane=${a}&offset=3&limit=10`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['access-control-allow-origin']).toBe(origin);
    expect(page.json().tickets).toEqual(whole.tickets.slice(3));
    for (const other of [`lane=${b}&offset=0&limit=5`, 'lane=default&offset=0&limit=5']) {
      const refused = await embed(other);
      expect(refused.statusCode, other).toBe(404);
      expect(refused.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
    }
    expect((await embed('offset=3')).statusCode).toBe(400);
  });
});
