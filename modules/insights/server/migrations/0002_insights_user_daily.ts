import type { Knex } from 'knex';

/**
 * `insight_user_daily`: the days of `insight_daily` without the queue — one row per company, day and agent —
 * what the company-wide dashboard sums (docs/insights.md "How the figures are kept"). The bench's year has
 * ~13,000 day rows over 20 queues and ~4,600 without them: summing a third of the rows is most of a
 * request's Postgres time.
 *
 * A row trigger on `insight_daily` adds each change of a day row (new − old) to its agent's day, so every
 * writer of the days keeps it — the fold (upsert, then the removal of emptied buckets) and the rebuild —
 * in the same transaction as the days themselves; an agent's day left at zero is removed. The rebuild
 * recomputes a company's agent days in one statement after its days instead of row by row.
 */
const COLUMNS = [
  'started',
  'active',
  'leads',
  'accepted',
  'wait_seconds',
  'resolved',
  'support_seconds',
  'finished',
  ...Array.from({ length: 11 }, (_, rate) => `r${rate}`),
];

/** An agent's day whose figures sum to nothing (their queues' rows cancel out) has no row, as the trigger leaves it. */
const NOT_ALL_ZERO = `NOT (${COLUMNS.map((column) => `sum(${column}) = 0`).join(' AND ')})`;

/** `insights_rebuild_daily` as 0001 has it, plus the agent days rebuilt from the days at its end. */
const rebuild = (withUserDays: boolean) => {
  const sums = (prefix: string) =>
    ['started', 'active', 'leads', 'accepted', 'wait_seconds', 'resolved', 'support_seconds', 'finished']
      .map((column) => `sum(${prefix}${column})`)
      .join(', ');
  const rateSums = (prefix: string) =>
    Array.from({ length: 11 }, (_, rate) => `coalesce(sum(${prefix}finished) FILTER (WHERE ${prefix}rate = ${rate}), 0)`).join(
      ', ',
    );
  return `
    CREATE OR REPLACE FUNCTION insights_rebuild_daily(company integer) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE zone text := insights_zone(company);
    BEGIN
      LOCK TABLE insight_deltas IN SHARE ROW EXCLUSIVE MODE;
      ${withUserDays ? "PERFORM set_config('insights.rebuilding_days', 'on', true);" : ''}
      DELETE FROM insight_deltas WHERE company_id = company;
      DELETE FROM insight_daily WHERE company_id = company;
      INSERT INTO insight_daily (company_id, day, queue_id, user_id, ${COLUMNS.join(', ')})
      SELECT x.company_id, x.day, x.queue_id, x.user_id, ${sums('x.')}, ${rateSums('x.')}
      FROM (
        SELECT c.company_id, (p.at AT TIME ZONE zone)::date AS day, coalesce(p.queue_id, 0) AS queue_id,
               coalesce(p.user_id, 0) AS user_id, p.started, p.active, p.leads, p.accepted, p.wait_seconds, p.resolved,
               p.support_seconds, p.finished, p.rate
        FROM insight_cycles c CROSS JOIN LATERAL insights_contributions(c, 1) p
        WHERE c.company_id = company
      ) x
      GROUP BY x.company_id, x.day, x.queue_id, x.user_id;
      ${
        withUserDays
          ? `PERFORM set_config('insights.rebuilding_days', 'off', true);
      DELETE FROM insight_user_daily WHERE company_id = company;
      INSERT INTO insight_user_daily (company_id, day, user_id, ${COLUMNS.join(', ')})
      SELECT company_id, day, user_id, ${COLUMNS.map((column) => `sum(${column})`).join(', ')}
      FROM insight_daily WHERE company_id = company GROUP BY company_id, day, user_id
      HAVING ${NOT_ALL_ZERO};`
          : ''
      }
    END $$`;
};

export async function up(knex: Knex): Promise<void> {
  const rateColumns = Array.from({ length: 11 }, (_, rate) => `r${rate} integer NOT NULL DEFAULT 0`).join(', ');
  await knex.raw(`
    CREATE TABLE insight_user_daily (
      company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      day date NOT NULL,
      user_id integer NOT NULL DEFAULT 0,
      started integer NOT NULL DEFAULT 0,
      active integer NOT NULL DEFAULT 0,
      leads integer NOT NULL DEFAULT 0,
      accepted integer NOT NULL DEFAULT 0,
      wait_seconds bigint NOT NULL DEFAULT 0,
      resolved integer NOT NULL DEFAULT 0,
      support_seconds bigint NOT NULL DEFAULT 0,
      finished integer NOT NULL DEFAULT 0,
      ${rateColumns},
      PRIMARY KEY (company_id, day, user_id)
    )`);

  const difference = COLUMNS.map((column) => `coalesce(n.${column}, 0) - coalesce(o.${column}, 0)`).join(', ');
  await knex.raw(`
    CREATE FUNCTION insights_daily_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n insight_daily;
      o insight_daily;
      k insight_daily;
    BEGIN
      -- the rebuild writes the agent days of the whole company at once at its end
      IF current_setting('insights.rebuilding_days', true) = 'on' THEN RETURN NULL; END IF;
      IF TG_OP <> 'DELETE' THEN n := NEW; END IF;
      IF TG_OP <> 'INSERT' THEN o := OLD; END IF;
      k := coalesce(n, o);
      -- a day row never changes its key (the fold upserts and removes), so one agent day takes the difference
      INSERT INTO insight_user_daily AS u (company_id, day, user_id, ${COLUMNS.join(', ')})
      VALUES (k.company_id, k.day, k.user_id, ${difference})
      ON CONFLICT (company_id, day, user_id) DO UPDATE SET
        ${COLUMNS.map((column) => `${column} = u.${column} + excluded.${column}`).join(', ')};
      DELETE FROM insight_user_daily u
      WHERE u.company_id = k.company_id AND u.day = k.day AND u.user_id = k.user_id
        AND ${COLUMNS.map((column) => `u.${column} = 0`).join(' AND ')};
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER insight_daily_user_days AFTER INSERT OR UPDATE OR DELETE ON insight_daily
    FOR EACH ROW EXECUTE FUNCTION insights_daily_changed()`);

  await knex.raw(rebuild(true));
  await knex.raw(`
    INSERT INTO insight_user_daily (company_id, day, user_id, ${COLUMNS.join(', ')})
    SELECT company_id, day, user_id, ${COLUMNS.map((column) => `sum(${column})`).join(', ')}
    FROM insight_daily GROUP BY company_id, day, user_id HAVING ${NOT_ALL_ZERO}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS insight_daily_user_days ON insight_daily');
  await knex.raw('DROP FUNCTION IF EXISTS insights_daily_changed()');
  await knex.raw(rebuild(false));
  await knex.raw('DROP TABLE IF EXISTS insight_user_daily');
}
