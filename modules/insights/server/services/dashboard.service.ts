import type { Knex } from 'knex';
import type {
  DashboardAttendant,
  DashboardCounters,
  DashboardResponse,
  TicketsDayResponse,
  TicketsUsersResponse,
} from '../../shared/types';
import { addDays, type DayRange, daysBetween, today } from './range';
import type { ViewerScope } from './scope';

/**
 * The dashboard's figures (docs/insights.md "What each figure counts"): sums of the company's days
 * (`insight_user_daily`, or `insight_daily` by queue) and of the changes not yet folded into them (`insight_deltas`), read in one statement,
 * plus the live counters from the running cycles.
 */

const SUM_COLUMNS = [
  'started',
  'active',
  'leads',
  'accepted',
  'wait_seconds',
  'resolved',
  'support_seconds',
  'finished',
] as const;
const RATE_COLUMNS = Array.from({ length: 11 }, (_, rate) => `r${rate}`);

/** What one group of days sums to. */
interface Sums {
  started: number;
  active: number;
  leads: number;
  accepted: number;
  waitSeconds: number;
  resolved: number;
  supportSeconds: number;
  finished: number;
  rates: number[];
}

const emptySums = (): Sums => ({
  started: 0,
  active: 0,
  leads: 0,
  accepted: 0,
  waitSeconds: 0,
  resolved: 0,
  supportSeconds: 0,
  finished: 0,
  rates: Array(11).fill(0),
});

function addInto(total: Sums, part: Sums): void {
  total.started += part.started;
  total.active += part.active;
  total.leads += part.leads;
  total.accepted += part.accepted;
  total.waitSeconds += part.waitSeconds;
  total.resolved += part.resolved;
  total.supportSeconds += part.supportSeconds;
  total.finished += part.finished;
  total.rates = total.rates.map((count, rate) => count + (part.rates[rate] ?? 0));
}

/** Rounds to two decimals. */
const round2 = (value: number) => Math.round(value * 100) / 100;
const minutes = (seconds: number, count: number) => (count > 0 ? round2(seconds / count / 60) : 0);
const percent = (part: number, whole: number) => (whole > 0 ? round2((part * 100) / whole) : 0);

/**
 * The bucket rows of a range (days folded, changes not yet folded), grouped by `groupBy` (`user_id`,
 * `day`, or nothing). The range's instants are its days' midnights in the company's time zone. The whole
 * company's figures come from the agents' days (`insight_user_daily`, a third of the rows); a viewer scoped
 * to their queues reads the days by queue.
 */
function bucketsSql(groupBy: 'user_id' | 'day' | null, scoped: boolean): string {
  const columns = [...SUM_COLUMNS, ...RATE_COLUMNS];
  const deltaRates = RATE_COLUMNS.map((column, rate) => `CASE WHEN d.rate = ${rate} THEN d.finished ELSE 0 END AS ${column}`);
  const queueFilter = (column: string) => (scoped ? ` AND ${column} = ANY(:queues::int[])` : '');
  const key = groupBy === null ? '' : `${groupBy}, `;
  return `
    WITH b AS (
      SELECT day, user_id, ${columns.join(', ')} FROM ${scoped ? 'insight_daily' : 'insight_user_daily'}
      WHERE company_id = :company AND day BETWEEN :from::date AND :to::date${queueFilter('queue_id')}
      UNION ALL
      SELECT (d.at AT TIME ZONE :zone)::date, coalesce(d.user_id, 0), ${SUM_COLUMNS.map((c) => `d.${c}`).join(', ')}, ${deltaRates.join(', ')}
      FROM insight_deltas d
      WHERE d.company_id = :company
        AND d.at >= (:from::date::timestamp AT TIME ZONE :zone) AND d.at < ((:to::date + 1)::timestamp AT TIME ZONE :zone)
        ${queueFilter('coalesce(d.queue_id, 0)')}
    )
    SELECT ${key}${columns.map((c) => `sum(${c})::bigint AS ${c}`).join(', ')} FROM b
    ${groupBy === null ? '' : `GROUP BY ${groupBy}`}`;
}

type BucketRow = Record<string, string | number | null>;

function sumsOf(row: BucketRow | undefined): Sums {
  if (!row) return emptySums();
  const n = (column: string) => Number(row[column] ?? 0);
  return {
    started: n('started'),
    active: n('active'),
    leads: n('leads'),
    accepted: n('accepted'),
    waitSeconds: n('wait_seconds'),
    resolved: n('resolved'),
    supportSeconds: n('support_seconds'),
    finished: n('finished'),
    rates: RATE_COLUMNS.map((column) => n(column)),
  };
}

function bindings(scope: ViewerScope, range: DayRange) {
  return { company: scope.companyId, from: range.from, to: range.to, zone: range.timezone, queues: scope.queueIds ?? [] };
}

/** The counters of docs/product/tickets-and-inbox.md#entities from a range's sums and the live counts. */
export function countersOf(sums: Sums, live: Record<string, number>): DashboardCounters {
  const withRating = sums.rates.reduce((total, count) => total + count, 0);
  const rate = (note: number) => sums.rates[note] ?? 0;
  const promoters = rate(9) + rate(10);
  const passives = rate(7) + rate(8);
  const detractors = withRating - promoters - passives;
  const promotersPerc = percent(promoters, withRating);
  const detractorsPerc = percent(detractors, withRating);
  const rateSum = sums.rates.reduce((total, count, rate) => total + count * rate, 0);
  return {
    supportHappening: live.open ?? 0,
    supportPending: (live.pending ?? 0) + (live.lgpd ?? 0),
    supportFinished: sums.finished,
    supportGroups: live.group ?? 0,
    leads: sums.leads,
    avgSupportTime: minutes(sums.supportSeconds, sums.resolved),
    avgWaitTime: minutes(sums.waitSeconds, sums.accepted),
    activeTickets: sums.active,
    passiveTickets: sums.started - sums.active,
    npsScore: withRating > 0 ? round2(promotersPerc - detractorsPerc) : 0,
    npsPromotersPerc: promotersPerc,
    npsPassivePerc: percent(passives, withRating),
    npsDetractorsPerc: detractorsPerc,
    tickets: sums.started,
    waitRating: live.nps ?? 0,
    withoutRating: sums.finished - withRating,
    withRating,
    percRating: percent(withRating, sums.finished),
    npsDistribution: sums.rates,
    avgRating: withRating > 0 ? round2(rateSum / withRating) : 0,
  };
}

/**
 * Tickets running now (by status) among those whose cycle started by the range's end. A range ending today
 * (the default) takes every running ticket: counted from the inbox's `tickets` on its (company, status) or
 * (company, queue, status) index, without visiting a row; an older range reads the running cycles.
 */
function liveCountsSql(scoped: boolean, endsToday: boolean): string {
  return endsToday
    ? `SELECT s.status, (SELECT count(*)::int FROM tickets t WHERE t.company_id = :company AND t.status = s.status
         ${scoped ? 'AND t.queue_id = ANY(:queues::int[])' : ''}) AS n
       FROM unnest(ARRAY['open', 'pending', 'lgpd', 'group', 'nps']) AS s(status)`
    : `SELECT status, count(*)::int AS n FROM insight_cycles
       WHERE company_id = :company AND closed_at IS NULL
         AND started_at < ((:to::date + 1)::timestamp AT TIME ZONE :zone)
         ${scoped ? 'AND coalesce(queue_id, 0) = ANY(:queues::int[])' : ''}
       GROUP BY status`;
}

/** The users an attendants table lists: every user of the company, or those sharing a queue with the viewer. */
function attendantUsersSql(scoped: boolean): string {
  return `SELECT u.id, u.name, u.online FROM users u WHERE u.company_id = :company
    ${scoped ? 'AND EXISTS (SELECT 1 FROM user_queues uq WHERE uq.user_id = u.id AND uq.queue_id = ANY(:queues::int[]))' : ''}`;
}

interface DashboardRow {
  sums: BucketRow[] | null;
  live: Record<string, number> | null;
  users: Array<[number, string, boolean | null]> | null;
}

/**
 * `GET /dashboard`: the counters and the attendants of a range. The sums by agent, the live counters and the
 * users listed come back from one statement, as JSON: one round trip and one plan, where three statements
 * cost the server and Postgres each its own parse, bind and result handling per request.
 */
export async function readDashboard(knex: Knex, scope: ViewerScope, range: DayRange): Promise<DashboardResponse> {
  const scoped = scope.queueIds !== null;
  const result = await knex.raw(
    `WITH sums AS (${bucketsSql('user_id', scoped)}),
          live AS (${liveCountsSql(scoped, range.to >= today(range.timezone))}),
          listed AS (${attendantUsersSql(scoped)})
     SELECT (SELECT json_agg(sums) FROM sums) AS sums,
            (SELECT json_object_agg(status, n) FROM live) AS live,
            (SELECT json_agg(json_build_array(id, name, online) ORDER BY name) FROM listed) AS users`,
    bindings(scope, range),
  );
  const row = (result.rows as DashboardRow[])[0];
  const users = (row?.users ?? []).map(([id, name, online]) => ({ id, name, online: online === true }));
  const total = emptySums();
  const perUser = new Map<number, Sums>();
  for (const bucket of row?.sums ?? []) {
    const sums = sumsOf(bucket);
    addInto(total, sums);
    perUser.set(Number(bucket.user_id), sums);
  }
  const listed = new Set(users.map((user) => user.id));
  const attendants: DashboardAttendant[] = users.map((user) => attendantOf(user, perUser.get(user.id) ?? emptySums()));
  // figures of users not listed (another queue's member, a deleted user) still count in the counters
  for (const [userId, sums] of perUser) {
    if (userId !== 0 && !listed.has(userId) && sums.finished + sums.accepted + sums.resolved > 0) {
      const name = (await knex('users').where({ id: userId, companyId: scope.companyId }).first('name'))?.name as
        | string
        | undefined;
      if (name !== undefined) attendants.push(attendantOf({ id: userId, name, online: false }, sums));
    }
  }
  return { counters: countersOf(total, row?.live ?? {}), attendants, range };
}

function attendantOf(user: { id: number; name: string; online: boolean }, sums: Sums): DashboardAttendant {
  const countRating = sums.rates.reduce((total, count) => total + count, 0);
  const rateSum = sums.rates.reduce((total, count, rate) => total + count * rate, 0);
  return {
    id: user.id,
    name: user.name,
    rating: countRating > 0 ? round2(rateSum / countRating) : 0,
    countRating,
    tickets: sums.finished,
    avgWaitTime: minutes(sums.waitSeconds, sums.accepted),
    avgSupportTime: minutes(sums.supportSeconds, sums.resolved),
    online: user.online === true,
  };
}

/**
 * `GET /dashboard/ticketsDay`: cycles started and closed per day of the range, every day present; a range of
 * one day is read per hour from the cycles themselves.
 */
export async function readTicketsPerDay(knex: Knex, scope: ViewerScope, range: DayRange): Promise<TicketsDayResponse> {
  if (range.from === range.to) {
    const result = await knex.raw(
      `WITH day AS (SELECT (:from::date::timestamp AT TIME ZONE :zone) AS starts,
                           ((:from::date + 1)::timestamp AT TIME ZONE :zone) AS ends)
       SELECT h AS hour,
         (SELECT count(*)::int FROM insight_cycles c, day WHERE c.company_id = :company AND c.started_at >= day.starts
            AND c.started_at < day.ends AND extract(hour FROM c.started_at AT TIME ZONE :zone) = h
            ${scope.queueIds ? 'AND coalesce(c.queue_id, 0) = ANY(:queues::int[])' : ''}) AS total,
         (SELECT count(*)::int FROM insight_cycles c, day WHERE c.company_id = :company AND c.closed_at >= day.starts
            AND c.closed_at < day.ends AND extract(hour FROM c.closed_at AT TIME ZONE :zone) = h
            ${scope.queueIds ? 'AND coalesce(c.queue_id, 0) = ANY(:queues::int[])' : ''}) AS finished
       FROM generate_series(0, 23) h ORDER BY h`,
      bindings(scope, range),
    );
    const data = (result.rows as Array<{ hour: number; total: number; finished: number }>).map((row) => ({
      hour: Number(row.hour),
      total: row.total,
      finished: row.finished,
    }));
    return { count: data.reduce((sum, point) => sum + point.total, 0), data };
  }
  const result = await knex.raw(bucketsSql('day', scope.queueIds !== null), bindings(scope, range));
  const byDay = new Map((result.rows as BucketRow[]).map((row) => [String(row.day), sumsOf(row)]));
  const data = Array.from({ length: daysBetween(range.from, range.to) + 1 }, (_, offset) => {
    const date = addDays(range.from, offset);
    const sums = byDay.get(date) ?? emptySums();
    return { date, total: sums.started, finished: sums.finished };
  });
  return { count: data.reduce((sum, point) => sum + point.total, 0), data };
}

/** `GET /dashboard/ticketsUsers`: cycles each agent closed in the range, most first. */
export async function readTicketsPerUser(knex: Knex, scope: ViewerScope, range: DayRange): Promise<TicketsUsersResponse> {
  const { attendants } = await readDashboard(knex, scope, range);
  return {
    data: attendants
      .filter((attendant) => attendant.tickets > 0)
      .map((attendant) => ({ userId: attendant.id, name: attendant.name, tickets: attendant.tickets }))
      .sort((a, b) => b.tickets - a.tickets || a.name.localeCompare(b.name)),
  };
}
