import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketStatus } from '../../shared/types';
import { TicketKit } from './testing/ticket-kit';
import { listTickets } from './ticket-list.service';
import {
  canSeeTicket,
  seesEverything,
  type Viewer,
  type VisibleTicketFields,
  viewersListsSql,
  whereCanSeeTicket,
} from './visibility';

/**
 * The ticket rule is written twice (docs/architecture.md, "Visibility in one place"): the predicate
 * `canSeeTicket` (reads, writes, realtime) and the lists' condition `viewersListsSql`, run by Postgres —
 * which the tabs read split into disjoint parts. This runs them over every combination of the fields that
 * decide visibility — profile, queues, allTicket, allowGroup, allUserChat, userClosePendingTicket; a
 * ticket's status, queue, owner and group flag — and fails on any ticket where they disagree.
 */
let t: TestApp;
let kit: TicketKit;
beforeAll(async () => {
  t = await createTestApp();
  kit = new TicketKit(t);
});
afterAll(async () => {
  await t?.close();
});

const STATUSES: TicketStatus[] = ['pending', 'open', 'closed', 'group', 'lgpd', 'nps'];

/** Every subset of `items`. */
function subsets<T>(items: T[]): T[][] {
  const all: T[][] = [[]];
  for (const item of items) all.push(...all.map((subset) => [...subset, item]));
  return all;
}

/**
 * The viewer whose tickets the lists show without showAll: the lists ignore allUserChat, and give an
 * admin the "my work" view of a user with allTicket and allowGroup.
 */
function listViewer(viewer: Viewer): Viewer {
  const narrowed: Viewer = { ...viewer, allUserChat: 'disabled' };
  return viewer.profile === 'admin' ? { ...narrowed, profile: 'user', allTicket: 'enable', allowGroup: true } : narrowed;
}

describe('ticket visibility', () => {
  it('the predicate and the lists’ SQL agree for every user and ticket', async () => {
    const { companyId, admin } = await kit.company();
    const queues = [await kit.queue(companyId), await kit.queue(companyId), await kit.queue(companyId)];
    const agents = [admin.id, (await kit.user(companyId)).id, (await kit.user(companyId)).id];
    const owners = [null, ...agents];

    // every ticket shape; a group status only on a group's ticket, as the write paths set it
    const shapes: VisibleTicketFields[] = [];
    for (const status of STATUSES) {
      for (const queueId of [null, ...queues]) {
        for (const userId of owners) {
          for (const isGroup of [false, true]) {
            if (status === 'group' && !isGroup) continue;
            shapes.push({ status, queueId, userId, isGroup });
          }
        }
      }
    }
    const contacts = (await kit
      .knex('contacts')
      .insert(
        shapes.map((shape, index) => ({
          companyId,
          name: `Visibility ${index}`,
          number: `55119${String(index).padStart(8, '0')}`,
          isGroup: shape.isGroup,
        })),
      )
      .returning('id')) as Array<{ id: number }>;
    const rows = (await kit
      .knex('tickets')
      .insert(shapes.map((shape, index) => ({ companyId, contactId: contacts[index]?.id, lastMessage: '', ...shape })))
      .returning(['id', 'status', 'queueId', 'userId', 'isGroup'])) as Array<VisibleTicketFields & { id: number }>;
    expect(rows).toHaveLength(shapes.length);

    const viewers: Viewer[] = [];
    for (const id of agents) {
      for (const profile of ['admin', 'user'] as const) {
        for (const queueIds of subsets(queues)) {
          for (const allTicket of ['enable', 'disable'] as const) {
            for (const allowGroup of [false, true]) {
              for (const allUserChat of ['enabled', 'disabled'] as const) {
                const userClosePendingTicket = viewers.length % 2 === 0 ? 'enabled' : 'disabled';
                viewers.push({ id, profile, queueIds, allTicket, allowGroup, allUserChat, userClosePendingTicket });
              }
            }
          }
        }
      }
    }

    const connection = await kit.knex.client.acquireConnection();
    const disagreements: string[] = [];
    try {
      for (const viewer of viewers) {
        const values: unknown[] = [companyId];
        const condition = viewersListsSql(viewer, 't', (value) => `$${values.push(value)}`);
        const result = await connection.query(`SELECT t.id FROM tickets t WHERE t.company_id = $1 AND ${condition}`, values);
        const listed = new Set((result.rows as Array<{ id: number }>).map((row) => row.id));
        for (const row of rows) {
          const ticket: VisibleTicketFields = {
            status: row.status,
            queueId: row.queueId,
            userId: row.userId,
            isGroup: row.isGroup,
          };
          const sees = canSeeTicket(viewer, ticket);
          // the lists are what the narrowed viewer may see; everything for those who see everything
          if (listed.has(row.id) !== canSeeTicket(listViewer(viewer), ticket) || (seesEverything(viewer) && !sees)) {
            disagreements.push(`${JSON.stringify(viewer)} ${JSON.stringify(ticket)}: listed ${listed.has(row.id)}, sees ${sees}`);
          }
        }
      }
    } finally {
      await kit.knex.client.releaseConnection(connection);
    }
    expect(viewers.length * rows.length).toBeGreaterThan(50_000);
    expect(disagreements.slice(0, 5)).toEqual([]);

    // the tabs read the same condition split into disjoint index ranges (listBranches): every page of
    // every status tab, for one viewer in eight, shows exactly the tickets the narrowed viewer may see
    for (const viewer of viewers.filter((_, index) => index % 8 === 0)) {
      for (const status of STATUSES) {
        const shown: number[] = [];
        for (let pageNumber = 1; ; pageNumber++) {
          const page = JSON.parse(
            await listTickets(kit.knex, companyId, viewer, { status, pageNumber }, { settings: {}, mask: false }),
          ) as { tickets: Array<{ id: number }>; hasMore: boolean };
          shown.push(...page.tickets.map((ticket) => ticket.id));
          if (!page.hasMore) break;
        }
        const visible = rows.filter((row) => row.status === status && canSeeTicket(listViewer(viewer), row)).map((row) => row.id);
        expect(
          shown.sort((a, b) => a - b),
          `${JSON.stringify(viewer)} ${status}`,
        ).toEqual(visible.sort((a, b) => a - b));
      }
    }

    // the rule as other features' queries apply it (InboxService.whereCanSeeTicket, the kanban board's
    // cards): exactly `canSeeTicket`, for every viewer and ticket — also a group's status on a ticket not
    // flagged a group, which no write path makes but the rule still hides without allowGroup
    const oddShapes = [null, ...agents].flatMap((userId) =>
      [null, ...queues].map((queueId) => ({ status: 'group' as const, queueId, userId, isGroup: false })),
    );
    const oddContacts = (await kit
      .knex('contacts')
      .insert(
        oddShapes.map((_, index) => ({ companyId, name: `Odd ${index}`, number: `55118${String(index).padStart(8, '0')}` })),
      )
      .returning('id')) as Array<{ id: number }>;
    const oddRows = (await kit
      .knex('tickets')
      .insert(oddShapes.map((shape, index) => ({ companyId, contactId: oddContacts[index]?.id, lastMessage: '', ...shape })))
      .returning(['id', 'status', 'queueId', 'userId', 'isGroup'])) as Array<VisibleTicketFields & { id: number }>;
    const everyRow = [...rows, ...oddRows];
    const wrong: string[] = [];
    for (const viewer of viewers) {
      const seen = new Set(
        (
          (await whereCanSeeTicket(
            kit.knex('tickets as t').where('t.companyId', companyId).select('t.id'),
            viewer,
            't',
          )) as Array<{
            id: number;
          }>
        ).map((row) => row.id),
      );
      for (const row of everyRow) {
        const sees = canSeeTicket(viewer, row);
        if (seen.has(row.id) !== sees)
          wrong.push(`${JSON.stringify(viewer)} ${JSON.stringify(row)}: selected ${!sees}, sees ${sees}`);
      }
    }
    expect(viewers.length * everyRow.length).toBeGreaterThan(70_000);
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
