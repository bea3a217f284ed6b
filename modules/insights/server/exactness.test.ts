/**
 * The figures stay exact under concurrent ticket changes (docs/insights.md "How the figures are kept"):
 * eight writers move forty tickets through every transition at once — accept, transfer, return to the queue,
 * resolve to a rating, close, reopen, rate, move to another contact, delete — through the inbox's route
 * and straight in SQL, while folds run beside them. Afterwards the days folded change by change equal the
 * days rebuilt from scratch, the agents' days kept beside them equal the days summed by agent, each ticket's running cycle matches the ticket, and each contact has one lead.
 */
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { foldDeltas } from './services/fold';
import { InsightsKit, type KitUser } from './testing/kit';

let t: TestApp;
let kit: InsightsKit;
let companyId: number;
let admin: KitUser;
const agents: KitUser[] = [];
const queues: number[] = [];
const contacts: number[] = [];
const tickets: number[] = [];

/** A deterministic sequence of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

beforeAll(async () => {
  t = await createTestApp();
  kit = new InsightsKit(t);
  ({ companyId, admin } = await kit.company());
  for (let q = 0; q < 2; q++) queues.push(await kit.queue(companyId));
  for (let a = 0; a < 3; a++) agents.push(await kit.user(companyId, { queueIds: queues }));
  for (let c = 0; c < 30; c++) contacts.push(await kit.contact(companyId));
  for (let i = 0; i < 40; i++) {
    const contactId = contacts[i % contacts.length] as number;
    // one active ticket per contact and connection: later tickets of a contact start closed
    const status = i < contacts.length ? 'pending' : 'closed';
    tickets.push(
      await kit.ticket(companyId, {
        contactId,
        at: new Date(Date.now() - 3_600_000).toISOString(),
        status,
        queueId: queues[i % 2],
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

it('keeps the days equal to a rebuild from the cycles after concurrent changes and folds', async () => {
  const knex = kit.knex;
  let stop = false;
  const folds = (async () => {
    let runs = 0;
    while (!stop) {
      await foldDeltas(knex, 0);
      runs++;
    }
    return runs;
  })();

  const writer = async (seed: number) => {
    const next = random(seed);
    for (let step = 0; step < 30; step++) {
      const ticketId = tickets[Math.floor(next() * tickets.length)] as number;
      const agent = agents[Math.floor(next() * agents.length)] as KitUser;
      const queueId = queues[Math.floor(next() * queues.length)] as number;
      const roll = next();
      const at = new Date();
      try {
        if (roll < 0.25) {
          // accept or transfer through the inbox's own route (its rules may refuse: that is fine)
          await t.inject({
            method: 'PUT',
            url: `/api/tickets/${ticketId}`,
            token: admin.token,
            payload: { status: 'open', userId: agent.id, queueId },
          });
        } else if (roll < 0.4) {
          await knex('tickets')
            .where({ id: ticketId })
            .whereIn('status', ['open', 'group'])
            .update({ status: 'pending', userId: null, updatedAt: at });
        } else if (roll < 0.55) {
          await knex('tickets').where({ id: ticketId }).whereNot('status', 'closed').update({ status: 'nps', updatedAt: at });
        } else if (roll < 0.72) {
          await knex('tickets').where({ id: ticketId }).update({ status: 'closed', closedAt: at, updatedAt: at });
        } else if (roll < 0.82) {
          await knex('tickets')
            .where({ id: ticketId, status: 'closed' })
            .update({ status: 'pending', userId: null, closedAt: null, updatedAt: at });
        } else if (roll < 0.9) {
          await knex('ticketRatings')
            .insert({ companyId, ticketId, rate: Math.floor(next() * 11), userId: agent.id })
            .onConflict('ticketId')
            .merge();
        } else if (roll < 0.96) {
          await knex('tickets').where({ id: ticketId }).update({ queueId, updatedAt: at });
        } else {
          const contactId = contacts[Math.floor(next() * contacts.length)] as number;
          await knex('tickets').where({ id: ticketId, status: 'closed' }).update({ contactId });
        }
      } catch (error) {
        // a unique index of the inbox (one active ticket per contact) refusing a reopening is a valid outcome
        if (!String(error).includes('tickets_one_active_per_contact')) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, i) => writer(i + 1)));
  // a deleted ticket takes its figures with it, and hands its contact's lead to the next ticket
  await knex('tickets').where({ id: tickets[0] }).delete();
  stop = true;
  expect(await folds).toBeGreaterThan(0);
  await foldDeltas(knex, 0);

  const days = () => knex('insightDaily').where({ companyId }).orderBy(['day', 'queueId', 'userId']).select();
  const incremental = await days();
  expect(incremental.length).toBeGreaterThan(0);
  // the agents' days the trigger kept are the days summed by agent (an agent's day summing to nothing has no row)
  const columns = ['started', 'active', 'leads', 'accepted', 'wait_seconds', 'resolved', 'support_seconds', 'finished'];
  for (let rate = 0; rate <= 10; rate++) columns.push(`r${rate}`);
  const userDays = async () =>
    (await knex.raw('SELECT * FROM insight_user_daily WHERE company_id = ? ORDER BY day, user_id', [companyId])).rows;
  const incrementalUserDays = await userDays();
  const summed = await knex.raw(
    `SELECT company_id, day, user_id,
            ${columns.map((column) => `sum(${column})::${column.endsWith('seconds') ? 'bigint' : 'int'} AS ${column}`).join(', ')}
     FROM insight_daily WHERE company_id = ? GROUP BY company_id, day, user_id
     HAVING NOT (${columns.map((column) => `sum(${column}) = 0`).join(' AND ')}) ORDER BY day, user_id`,
    [companyId],
  );
  expect(incrementalUserDays.length).toBeGreaterThan(0);
  expect(incrementalUserDays).toEqual(summed.rows);
  await knex.raw('SELECT insights_rebuild_daily(?)', [companyId]);
  expect(await days()).toEqual(incremental);
  expect(await userDays()).toEqual(incrementalUserDays);
  expect(await userDays()).toEqual(incrementalUserDays);

  // each ticket's running cycle is the ticket as it is
  const mismatches = await knex.raw(
    `SELECT t.id FROM tickets t
     JOIN LATERAL (SELECT * FROM insight_cycles c WHERE c.ticket_id = t.id ORDER BY seq DESC LIMIT 1) c ON true
     WHERE t.company_id = ? AND (c.status <> t.status OR c.user_id IS DISTINCT FROM t.user_id
       OR c.queue_id IS DISTINCT FROM t.queue_id OR c.contact_id <> t.contact_id OR (c.closed_at IS NULL) <> (t.status <> 'closed'))`,
    [companyId],
  );
  expect(mismatches.rows).toEqual([]);
  // one lead per contact that has tickets: its first ticket's first cycle
  const leads = await knex.raw(
    `SELECT contact_id, count(*) FILTER (WHERE lead)::int AS leads,
            bool_or(lead AND seq = 1 AND ticket_id = (SELECT id FROM tickets x WHERE x.contact_id = c.contact_id ORDER BY created_at, id LIMIT 1)) AS right_one
     FROM insight_cycles c WHERE company_id = ? GROUP BY contact_id`,
    [companyId],
  );
  for (const row of leads.rows as Array<{ contact_id: number; leads: number; right_one: boolean }>) {
    expect(row).toEqual({ contact_id: row.contact_id, leads: 1, right_one: true });
  }
}, 120_000);

it('counts one lead when two first tickets of a new contact arrive at once', async () => {
  const contactId = await kit.contact(companyId);
  const at = new Date().toISOString();
  await Promise.all(
    [null, 7].map((connectionId) =>
      kit
        .knex('tickets')
        .insert({ companyId, contactId, status: 'pending', whatsappId: connectionId, createdAt: at, updatedAt: at }),
    ),
  );
  const rows = await kit.knex('insightCycles').where({ companyId, contactId }).select('lead');
  expect(rows.map((row) => row.lead).sort()).toEqual([false, true]);
});
