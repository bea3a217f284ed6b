/**
 * The dashboard's figures against hand-computed values (docs/insights.md "What each figure counts"): a
 * company whose March 2026 in São Paulo (UTC−3) holds tickets of every kind — waits, transfers, a reopening,
 * ratings of each NPS band, tickets crossing both edges of the range (in the company's time zone, not in
 * UTC), live tickets in each status — and another company's ticket on the same days. Every change goes
 * through the triggers (at the instants the rows say); half of them are folded into days before the rest is
 * written, so the figures sum folded days and pending changes, then everything folded, then rebuilt.
 */
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardAttendant, DashboardResponse, TicketsDayResponse, TicketsUsersResponse } from '../shared/types';
import { foldDeltas } from './services/fold';
import { InsightsKit, type KitUser } from './testing/kit';

let t: TestApp;
let kit: InsightsKit;
let companyId: number;
let admin: KitUser;
let ana: KitUser;
let beto: KitUser;
let q2Viewer: KitUser;

const MARCH = '/dashboard?date_from=2026-03-01&date_to=2026-03-31';

beforeAll(async () => {
  t = await createTestApp();
  kit = new InsightsKit(t);
  ({ companyId, admin } = await kit.company());
  const q1 = await kit.queue(companyId, 'Q1');
  const q2 = await kit.queue(companyId, 'Q2');
  ana = await kit.user(companyId, { name: 'Ana', queueIds: [q1] });
  beto = await kit.user(companyId, { name: 'Beto', queueIds: [q1, q2] });
  q2Viewer = await kit.user(companyId, { name: 'Vera', showDashboard: 'enabled', queueIds: [q2] });
  const contact = async () => kit.contact(companyId);
  const [c1, c2, c3, c4, c5, c6, c8, c9] = [
    await contact(),
    await contact(),
    await contact(),
    await contact(),
    await contact(),
    await contact(),
    await contact(),
    await contact(),
  ];
  const c7 = await kit.contact(companyId, { isGroup: true });

  // T1: passive, waits 10, attended 30 by Ana, rated 10; reopened the next day: waits 5, attended 15 by Beto
  const t1 = await kit.ticket(companyId, { contactId: c1, at: '2026-03-02T12:00:00Z', queueId: q1 });
  await kit.change(t1, '2026-03-02T12:10:00Z', { status: 'open', userId: ana.id });
  await kit.change(t1, '2026-03-02T12:40:00Z', { status: 'closed' });
  await kit.rate(companyId, t1, 10, ana.id);
  await kit.change(t1, '2026-03-03T12:00:00Z', { status: 'pending', userId: null });
  await kit.change(t1, '2026-03-03T12:05:00Z', { status: 'open', userId: beto.id });
  await kit.change(t1, '2026-03-03T12:20:00Z', { status: 'closed' });
  // T2: waits 20, accepted by Ana, transferred to Beto, closed by Beto 40 minutes after the acceptance, rated 6
  const t2 = await kit.ticket(companyId, { contactId: c2, at: '2026-03-05T13:00:00Z', queueId: q1 });
  await kit.change(t2, '2026-03-05T13:20:00Z', { status: 'open', userId: ana.id });
  await kit.change(t2, '2026-03-05T13:30:00Z', { userId: beto.id });
  await kit.change(t2, '2026-03-05T14:00:00Z', { status: 'closed' });
  await kit.rate(companyId, t2, 6, beto.id);
  // T3: active (opened by Beto himself, in Q2): no wait, 25 minutes, rated 8
  const t3 = await kit.ticket(companyId, {
    contactId: c3,
    at: '2026-03-10T15:00:00Z',
    status: 'open',
    userId: beto.id,
    queueId: q2,
  });
  await kit.change(t3, '2026-03-10T15:25:00Z', { status: 'closed' });
  await kit.rate(companyId, t3, 8, beto.id);

  // half of the changes folded into days; the rest stays pending
  await foldDeltas(kit.knex, 0);

  // T4: started 22:00 on 28 February in São Paulo (1 March in UTC), accepted 00:10 on 1 March: waits 130, 30 minutes
  const t4 = await kit.ticket(companyId, { contactId: c4, at: '2026-03-01T01:00:00Z', queueId: q1 });
  await kit.change(t4, '2026-03-01T03:10:00Z', { status: 'open', userId: ana.id });
  await kit.change(t4, '2026-03-01T03:40:00Z', { status: 'closed' });
  // T5: started 20:00 on 31 March, accepted 00:30 on 1 April (outside), still open
  const t5 = await kit.ticket(companyId, { contactId: c8, at: '2026-03-31T23:00:00Z', queueId: q1 });
  await kit.change(t5, '2026-04-01T03:30:00Z', { status: 'open', userId: ana.id });
  // T7: waiting in Q2, never accepted
  await kit.ticket(companyId, { contactId: c5, at: '2026-03-20T10:00:00Z', queueId: q2 });
  // T8: waits 2, resolved after 28 minutes, waiting for the contact's rating
  const t8 = await kit.ticket(companyId, { contactId: c6, at: '2026-03-15T10:00:00Z', queueId: q1 });
  await kit.change(t8, '2026-03-15T10:02:00Z', { status: 'open', userId: ana.id });
  await kit.change(t8, '2026-03-15T10:30:00Z', { status: 'nps' });
  // T9: a group, waits 1, attended by Beto
  const t9 = await kit.ticket(companyId, { contactId: c7, at: '2026-03-12T10:00:00Z', queueId: q1, isGroup: true });
  await kit.change(t9, '2026-03-12T10:01:00Z', { status: 'group', userId: beto.id });
  // T11: February, rated 0: outside the range
  const t11 = await kit.ticket(companyId, { contactId: c9, at: '2026-02-10T12:00:00Z', queueId: q1 });
  await kit.change(t11, '2026-02-10T12:01:00Z', { status: 'open', userId: ana.id });
  await kit.change(t11, '2026-02-10T12:30:00Z', { status: 'closed' });
  await kit.rate(companyId, t11, 0, ana.id);

  // another company's ticket on the same days
  const other = await kit.company();
  const otherContact = await kit.contact(other.companyId);
  const t10 = await kit.ticket(other.companyId, { contactId: otherContact, at: '2026-03-02T12:00:00Z' });
  await kit.change(t10, '2026-03-02T12:03:00Z', { status: 'open', userId: other.admin.id });
  await kit.change(t10, '2026-03-02T12:09:00Z', { status: 'closed' });
  await kit.rate(other.companyId, t10, 3, other.admin.id);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** March, as the admin sees it, hand-computed (see the fixture above). */
const EXPECTED_COUNTERS = {
  supportHappening: 1, // T5
  supportPending: 1, // T7
  supportGroups: 1, // T9
  waitRating: 1, // T8
  supportFinished: 5, // T1 twice, T2, T3, T4
  tickets: 8, // T1 twice, T2, T3, T5, T7, T8, T9 (T4 started on 28 February)
  activeTickets: 1, // T3
  passiveTickets: 7,
  leads: 7, // the first tickets of c1, c2, c3, c5, c6, c7, c8
  avgWaitTime: 24, // (10 + 5 + 20 + 0 + 130 + 2 + 1) / 7
  avgSupportTime: 28, // (30 + 15 + 40 + 25 + 30 + 28) / 6
  withRating: 3, // T1's first cycle 10, T2 6, T3 8
  withoutRating: 2, // T1's second cycle, T4
  percRating: 60,
  npsPromotersPerc: 33.33,
  npsPassivePerc: 33.33,
  npsDetractorsPerc: 33.33,
  npsScore: 0,
  avgRating: 8,
  npsDistribution: [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1],
};

function attendant(body: DashboardResponse, user: KitUser): DashboardAttendant | undefined {
  return body.attendants.find((row) => row.id === user.id);
}

describe('GET /dashboard', () => {
  it('counts March in the company time zone, folded days and pending changes together', async () => {
    const { status, body } = await kit.get<DashboardResponse>(admin.token, MARCH);
    expect(status).toBe(200);
    expect(body.range).toEqual({ from: '2026-03-01', to: '2026-03-31', timezone: 'America/Sao_Paulo' });
    expect(body.counters).toEqual(EXPECTED_COUNTERS);
  });

  it('counts the same live tickets for a range ending today, from the tickets themselves', async () => {
    const { body } = await kit.get<DashboardResponse>(admin.token, '/dashboard?days=731');
    expect(body.counters).toMatchObject({ supportHappening: 1, supportPending: 1, supportGroups: 1, waitRating: 1 });
  });

  it('gives each agent their own figures: waits to who accepted first, the rest to who closed', async () => {
    const { body } = await kit.get<DashboardResponse>(admin.token, MARCH);
    // Ana: closed T1's first cycle and T4; accepted first T1, T2, T4, T8; resolved T1, T4, T8
    expect(attendant(body, ana)).toEqual({
      id: ana.id,
      name: 'Ana',
      tickets: 2,
      countRating: 1,
      rating: 10,
      avgWaitTime: 40.5, // (10 + 20 + 130 + 2) / 4
      avgSupportTime: 29.33, // (30 + 30 + 28) / 3
      online: false,
    });
    // Beto: closed T1's second cycle, T2 (transferred to him), T3; accepted first T1's second cycle, T3, T9
    expect(attendant(body, beto)).toEqual({
      id: beto.id,
      name: 'Beto',
      tickets: 3,
      countRating: 2,
      rating: 7,
      avgWaitTime: 2, // (5 + 0 + 1) / 3
      avgSupportTime: 26.67, // (15 + 40 + 25) / 3
      online: false,
    });
  });

  it('is the same once every change is folded, and equal to the days rebuilt from the cycles', async () => {
    await foldDeltas(kit.knex, 0);
    expect(await kit.knex('insightDeltas').where({ companyId }).count()).toEqual([{ count: 0 }]);
    const folded = await kit.get<DashboardResponse>(admin.token, MARCH);
    expect(folded.body.counters).toEqual(EXPECTED_COUNTERS);
    const days = async () => kit.knex('insightDaily').where({ companyId }).orderBy(['day', 'queueId', 'userId']).select();
    const incremental = await days();
    await kit.knex.raw('SELECT insights_rebuild_daily(?)', [companyId]);
    expect(await days()).toEqual(incremental);
  });

  it("limits a profile user with showDashboard to their queues' tickets", async () => {
    const { status, body } = await kit.get<DashboardResponse>(q2Viewer.token, MARCH);
    expect(status).toBe(200);
    // Q2 holds T3 (active, closed, rated 8) and T7 (waiting)
    expect(body.counters).toMatchObject({
      tickets: 2,
      activeTickets: 1,
      passiveTickets: 1,
      leads: 2,
      supportFinished: 1,
      supportPending: 1,
      supportHappening: 0,
      avgWaitTime: 0,
      avgSupportTime: 25,
      withRating: 1,
      npsPassivePerc: 100,
      npsScore: 0,
    });
    expect(body.attendants.map((row) => row.name).sort()).toEqual(['Beto', 'Vera']);
  });

  it('charts March per day and per agent', async () => {
    const days = await kit.get<TicketsDayResponse>(
      admin.token,
      '/dashboard/ticketsDay?initialDate=2026-03-01&finalDate=2026-03-31',
    );
    expect(days.body.data).toHaveLength(31);
    expect(days.body.count).toBe(8);
    const day = (date: string) => days.body.data.find((point) => point.date === date);
    expect(day('2026-03-01')).toEqual({ date: '2026-03-01', total: 0, finished: 1 }); // T4 closed at 00:40
    expect(day('2026-03-02')).toEqual({ date: '2026-03-02', total: 1, finished: 1 });
    expect(day('2026-03-31')).toEqual({ date: '2026-03-31', total: 1, finished: 0 }); // T5 at 20:00
    const hours = await kit.get<TicketsDayResponse>(
      admin.token,
      '/dashboard/ticketsDay?initialDate=2026-03-05&finalDate=2026-03-05',
    );
    expect(hours.body.data).toHaveLength(24);
    expect(hours.body.data.find((point) => point.hour === 10)).toEqual({ hour: 10, total: 1, finished: 0 }); // 13:00Z
    expect(hours.body.data.find((point) => point.hour === 11)).toEqual({ hour: 11, total: 0, finished: 1 }); // 14:00Z
    const users = await kit.get<TicketsUsersResponse>(
      admin.token,
      '/dashboard/ticketsUsers?initialDate=2026-03-01&finalDate=2026-03-31',
    );
    expect(users.body.data).toEqual([
      { userId: beto.id, name: 'Beto', tickets: 3 },
      { userId: ana.id, name: 'Ana', tickets: 2 },
    ]);
  });

  it("recounts the days in a new time zone: in UTC, T4's start and its contact's lead fall in March", async () => {
    const put = await t.inject({
      method: 'PUT',
      url: '/api/dashboard/timezone',
      token: admin.token,
      payload: { timezone: 'UTC' },
    });
    expect(put.statusCode).toBe(200);
    const { body } = await kit.get<DashboardResponse>(admin.token, MARCH);
    expect(body.range.timezone).toBe('UTC');
    expect(body.counters).toMatchObject({ tickets: 9, leads: 8, passiveTickets: 8, supportFinished: 5, avgWaitTime: 24 });
    const back = await t.inject({
      method: 'PUT',
      url: '/api/dashboard/timezone',
      token: admin.token,
      payload: { timezone: 'America/Sao_Paulo' },
    });
    expect(back.statusCode).toBe(200);
    expect((await kit.get<DashboardResponse>(admin.token, MARCH)).body.counters).toEqual(EXPECTED_COUNTERS);
  });

  it('refuses an unknown time zone, and leaves it to admins', async () => {
    const bad = await t.inject({
      method: 'PUT',
      url: '/api/dashboard/timezone',
      token: admin.token,
      payload: { timezone: 'Mars/Olympus' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'ERR_INVALID_TIME_ZONE' });
    const agent = await t.inject({
      method: 'PUT',
      url: '/api/dashboard/timezone',
      token: q2Viewer.token,
      payload: { timezone: 'UTC' },
    });
    expect(agent.statusCode).toBe(403);
  });
});
