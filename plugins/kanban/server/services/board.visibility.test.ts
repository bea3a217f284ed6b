import type { SessionUser } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KanbanKit } from '../testing/kit';
import { BOARD_STATUSES, type BoardSlice, boardJson, boardVisibilityOf } from './board.service';

/**
 * The board shows a user exactly the tickets the inbox lets them see (docs/product/roles-and-permissions.md#roles-in-the-inbox):
 * for every combination of the fields that decide it — the viewer's profile, queues, allTicket, allowGroup
 * and allUserChat; a ticket's status, queue, owner and group flag — the board's cards are the tickets of
 * its statuses for which the inbox's own `canSeeTicket` answers true.
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

/** Every subset of `items`. */
function subsets<T>(items: T[]): T[][] {
  const all: T[][] = [[]];
  for (const item of items) all.push(...all.map((subset) => [...subset, item]));
  return all;
}

async function boardIds(companyId: number, user: SessionUser, slice: BoardSlice): Promise<number[]> {
  const inbox = kit.ctx.services.use('inbox');
  const board = await boardJson(kit.knex, companyId, boardVisibilityOf(inbox, user), {}, { mask: false, shape: 'board', slice });
  return (JSON.parse(board.tickets) as Array<{ id: number }>).map((card) => card.id).sort((a, b) => a - b);
}

describe('the board’s visibility', () => {
  it('shows every viewer exactly the tickets of its statuses that canSeeTicket allows them', async () => {
    const { companyId, admin } = await kit.company();
    const queues = [await kit.queue(companyId), await kit.queue(companyId), await kit.queue(companyId)];
    const agents = [admin.id, (await kit.user(companyId)).id, (await kit.user(companyId)).id];

    // every shape, closed tickets (never on the board) and a group's status on a ticket not flagged a group
    // (no write path makes one, the rule still hides it without allowGroup) included
    const shapes: Array<{ status: string; queueId: number | null; userId: number | null; isGroup: boolean }> = [];
    for (const status of [...BOARD_STATUSES, 'closed']) {
      for (const queueId of [null, ...queues]) {
        for (const userId of [null, ...agents]) {
          for (const isGroup of [false, true]) shapes.push({ status, queueId, userId, isGroup });
        }
      }
    }
    const contacts = (await kit
      .knex('contacts')
      .insert(
        shapes.map((shape, index) => ({
          companyId,
          name: `Board visibility ${index}`,
          number: `55117${String(index).padStart(8, '0')}`,
          isGroup: shape.isGroup,
        })),
      )
      .returning('id')) as Array<{ id: number }>;
    const tickets = (await kit
      .knex('tickets')
      .insert(shapes.map((shape, index) => ({ companyId, contactId: contacts[index]?.id, lastMessage: '', ...shape })))
      .returning(['id', 'status'])) as Array<{ id: number; status: string }>;
    const onBoard = tickets.filter((ticket) => (BOARD_STATUSES as readonly string[]).includes(ticket.status));

    const base = admin.session.user;
    const viewers: SessionUser[] = [];
    // the admin and one agent look (each also sees tickets of the others); every viewer asks canSeeTicket
    // once per ticket, a query each: some 25,000 of them
    for (const id of agents.slice(0, 2)) {
      for (const profile of ['admin', 'user'] as const) {
        for (const queueIds of subsets(queues)) {
          for (const allTicket of ['enable', 'disable'] as const) {
            for (const allowGroup of [false, true]) {
              for (const allUserChat of ['enabled', 'disabled'] as const) {
                const queuesOfViewer = queueIds.map((queueId) => ({ id: queueId, name: `Queue ${queueId}`, color: '#1677FF' }));
                viewers.push({ ...base, id, profile, queues: queuesOfViewer, allTicket, allowGroup, allUserChat });
              }
            }
          }
        }
      }
    }

    const inbox = kit.ctx.services.use('inbox');
    const disagreements: string[] = [];
    let compared = 0;
    for (const [index, viewer] of viewers.entries()) {
      const allowed = await Promise.all(onBoard.map((ticket) => inbox.canSeeTicket(viewer, ticket.id)));
      const expected = onBoard
        .filter((_, position) => allowed[position])
        .map((ticket) => ticket.id)
        .sort((a, b) => a - b);
      compared += onBoard.length;
      const who = JSON.stringify({ ...viewer, company: undefined });
      const shown = await boardIds(companyId, viewer, { kind: 'all' });
      if (JSON.stringify(shown) !== JSON.stringify(expected)) disagreements.push(`${who}: board ${shown}, may see ${expected}`);
      // the pages read the same tickets (one viewer in eight: the first cards of every lane)
      if (index % 8 === 0) {
        const paged = await boardIds(companyId, viewer, { kind: 'head', perLane: 500 });
        if (JSON.stringify(paged) !== JSON.stringify(expected)) disagreements.push(`${who}: page ${paged}, may see ${expected}`);
      }
    }
    expect(compared).toBeGreaterThan(24_000);
    expect(disagreements.slice(0, 3)).toEqual([]);
  }, 90_000);
});
