import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMBED_KEY, DEMO_PAGE_PORT } from '../demo/constants';
import { KanbanKit } from '../testing/kit';
import { seedKanbanDemo } from './demo';

/** The demo (`npm start`): Acme's lanes with automation, cards on them, the demo page's key; idempotent. */
let t: TestApp;
let kit: KanbanKit;

beforeAll(async () => {
  t = await createTestApp({ demoData: true });
  kit = new KanbanKit(t);
});
afterAll(async () => {
  await t?.close();
});

const snapshot = async (companyId: number) => ({
  lanes: await kit
    .knex('tags')
    .where({ companyId, kanban: 1 })
    .orderBy('name')
    .select('name', 'timeLane', 'nextLaneId', 'rollbackLaneId'),
  links: (await kit.knex('ticketTags').where({ companyId }).count({ n: '*' }))[0],
  keys: await kit.knex('kanbanEmbedKeys').where({ companyId }).select('key', 'allowedOrigins', 'mayMove'),
});

describe('the kanban demo', () => {
  it("gives Acme lanes with automation, cards on them and the demo page's key, and changes nothing when run again", async () => {
    const acme = t.demo.companies.acme;
    const first = await snapshot(acme);
    const waiting = first.lanes.find((lane: { name: string }) => lane.name === 'Aguardando cliente');
    expect(waiting).toMatchObject({ timeLane: 1_440, nextLaneId: expect.any(Number), rollbackLaneId: expect.any(Number) });
    expect(first.keys).toEqual([
      {
        key: DEMO_EMBED_KEY,
        allowedOrigins: [`http://localhost:${DEMO_PAGE_PORT}`, `http://127.0.0.1:${DEMO_PAGE_PORT}`],
        mayMove: true,
      },
    ]);

    const admin = await t.login('admin@acme.test');
    const board = await t.inject({ method: 'GET', url: '/api/ticket/kanban', token: admin.token });
    const laneIds = new Set(board.json().tickets.map((card: { laneId: number | null }) => card.laneId));
    expect(laneIds.size).toBeGreaterThan(3);

    await seedKanbanDemo(kit.ctx, { companies: t.demo.companies });
    expect(await snapshot(acme)).toEqual(first);
  });
});
