import type { Knex } from 'knex';

/**
 * The per-row triggers of the figures (migration 0001) without SQL functions called from inside them.
 *
 * `insights_contributions` keeps a `SET` so that the rebuild's LATERAL join doesn't inline it, and a SQL
 * function that isn't inlined is parsed and planned again at every call from a trigger (its plan lives only
 * as long as the calling statement's run); the same holds for `insights_refresh_lead`, called with PERFORM.
 * On a batch of 200 new tickets (a campaign's) that was ~0.25 ms of Postgres per ticket for the deltas and
 * ~0.03 ms for the lead, two thirds of the insights trigger's cost (docs/benchmarks.md, "Campaigns").
 *
 * So the cycle trigger writes its deltas with the contributions spelled out over NEW and OLD — the same
 * expressions as `insights_contributions`, which the rebuild keeps using: the exactness tests compare the
 * two ways, day by day — and `insights_refresh_lead` becomes PL/pgSQL, whose statements are planned once
 * per connection.
 */

/** What a cycle (`row`, NEW or OLD) adds to the figures, times `sign`: `insights_contributions`' body. */
function contributions(row: string, sign: string): string {
  return `
        SELECT ${row}.started_at AS at, ${row}.queue_id AS queue_id, ${row}.user_id AS user_id, ${sign} AS started,
               ${sign} * ${row}.active::int AS active, ${sign} * ${row}.lead::int AS leads, 0 AS accepted,
               0::bigint AS wait_seconds, 0 AS resolved, 0::bigint AS support_seconds, 0 AS finished, NULL::smallint AS rate
        UNION ALL
        SELECT ${row}.accepted_at, ${row}.queue_id, ${row}.first_user_id, 0, 0, 0, ${sign},
               ${sign} * greatest(0, floor(extract(epoch FROM ${row}.accepted_at - ${row}.started_at)))::bigint, 0, 0::bigint, 0,
               NULL::smallint
        WHERE ${row}.accepted_at IS NOT NULL
        UNION ALL
        SELECT ${row}.resolved_at, ${row}.queue_id, ${row}.user_id, 0, 0, 0, 0, 0::bigint, ${sign},
               ${sign} * greatest(0, floor(extract(epoch FROM ${row}.resolved_at - ${row}.accepted_at)))::bigint, 0, NULL::smallint
        WHERE ${row}.resolved_at IS NOT NULL AND ${row}.accepted_at IS NOT NULL
        UNION ALL
        SELECT ${row}.closed_at, ${row}.queue_id, ${row}.user_id, 0, 0, 0, 0, 0::bigint, 0, 0::bigint, ${sign}, ${row}.rate
        WHERE ${row}.closed_at IS NOT NULL`;
}

const DELTA_COLUMNS = `company_id, at, queue_id, user_id, started, active, leads, accepted, wait_seconds, resolved,
                       support_seconds, finished, rate`;

/** The cycle trigger of migration 0001, with `parts(sign)` giving a row's contributions. */
function cycleChanged(newParts: string, oldParts: string, oldNegated: string): string {
  return `
    CREATE OR REPLACE FUNCTION insights_cycle_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('insights.rebuilding', true) = 'on' THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        -- the company itself is being deleted: its figures go with it
        IF NOT EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id) THEN RETURN NULL; END IF;
        INSERT INTO insight_deltas (${DELTA_COLUMNS})
        SELECT OLD.company_id, x.* FROM (${oldNegated}) x;
        RETURN NULL;
      END IF;
      INSERT INTO insight_deltas (${DELTA_COLUMNS})
      SELECT NEW.company_id, at, queue_id, user_id, sum(started), sum(active), sum(leads), sum(accepted), sum(wait_seconds),
             sum(resolved), sum(support_seconds), sum(finished), rate
      FROM (
        ${newParts}
        UNION ALL
        SELECT * FROM (${oldParts}) o WHERE TG_OP = 'UPDATE'
      ) x
      GROUP BY at, queue_id, user_id, rate
      HAVING sum(started) <> 0 OR sum(active) <> 0 OR sum(leads) <> 0 OR sum(accepted) <> 0 OR sum(wait_seconds) <> 0
          OR sum(resolved) <> 0 OR sum(support_seconds) <> 0 OR sum(finished) <> 0;
      RETURN NULL;
    END $$`;
}

function refreshLead(language: 'sql' | 'plpgsql'): string {
  const update = `UPDATE insight_cycles c SET lead = (c.ticket_id = f.id AND c.seq = 1)
      FROM (SELECT coalesce((SELECT id FROM tickets WHERE company_id = company AND contact_id = contact
                             ORDER BY created_at, id LIMIT 1), 0) AS id) f
      WHERE c.company_id = company AND c.contact_id = contact AND c.lead IS DISTINCT FROM (c.ticket_id = f.id AND c.seq = 1)`;
  return `
    CREATE OR REPLACE FUNCTION insights_refresh_lead(company integer, contact integer) RETURNS void LANGUAGE ${language} AS $$
      ${language === 'plpgsql' ? `BEGIN ${update}; END` : update}
    $$`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(cycleChanged(contributions('NEW', '1'), contributions('OLD', '-1'), contributions('OLD', '-1')));
  await knex.raw(refreshLead('plpgsql'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    cycleChanged(
      'SELECT * FROM insights_contributions(NEW, 1)',
      'SELECT * FROM insights_contributions(OLD, -1)',
      'SELECT * FROM insights_contributions(OLD, -1)',
    ),
  );
  await knex.raw(refreshLead('sql'));
}
