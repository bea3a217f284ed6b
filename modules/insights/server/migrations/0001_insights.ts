import type { Knex } from 'knex';

/**
 * The figures of the dashboard (docs/insights.md "How the figures are kept").
 *
 * - `insight_cycles`: one row per service cycle of a ticket — from its creation, or its reopening, to its
 *   close — with the instants that the figures measure (started, first accepted, resolved, closed), the
 *   ticket's current queue, agent and status, the rating and whether the cycle brought a new contact
 *   (lead) or was started by an agent (active). Triggers on the inbox's `tickets` and `ticket_ratings` keep
 *   it, whatever writes them (routes, the chatbot, the channels, a bulk close, a contact merge).
 * - `insight_deltas`: every change of a cycle, as the signed change of its contributions to the figures
 *   (a start, an acceptance with its wait, a resolution with its time in attendance, a close with its
 *   rating), each at its instant. Only inserts: a ticket's change never waits on another's.
 * - `insight_daily`: the deltas folded by calendar day of the company's time zone, queue and agent — what
 *   `GET /dashboard` sums. A fold moves deltas into it in one statement (delete … returning, then an upsert
 *   of their sums), so a delta counts either in the deltas or in the days, never in both; readers sum both.
 *
 * The cycles are the truth: `insights_rebuild_daily(company)` recomputes a company's days from them (after
 * a change of the company's time zone, and in the tests that prove the incremental figures exact), and
 * `insights_backfill(company)` derives the cycles of tickets written without the triggers (tickets that
 * predate this migration, a bulk load with triggers off) from the tickets, their logs and ratings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE insight_cycles (
      id bigserial PRIMARY KEY,
      company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      ticket_id integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      contact_id integer NOT NULL,
      queue_id integer,
      user_id integer,
      first_user_id integer,
      whatsapp_id integer,
      status varchar(10) NOT NULL,
      is_group boolean NOT NULL DEFAULT false,
      active boolean NOT NULL DEFAULT false,
      lead boolean NOT NULL DEFAULT false,
      started_at timestamptz NOT NULL,
      accepted_at timestamptz,
      resolved_at timestamptz,
      closed_at timestamptz,
      rate smallint,
      UNIQUE (ticket_id, seq)
    )`);
  // the cycles still running (Moments' and the dashboard's live counters), and a contact's cycles (leads)
  await knex.raw('CREATE INDEX insight_cycles_live ON insight_cycles (company_id, started_at) WHERE closed_at IS NULL');
  await knex.raw('CREATE INDEX insight_cycles_contact ON insight_cycles (company_id, contact_id)');
  // one day's cycles by the hour (the tickets-per-day chart of a single day)
  await knex.raw('CREATE INDEX insight_cycles_started ON insight_cycles (company_id, started_at)');

  await knex.raw(`
    CREATE TABLE insight_deltas (
      id bigserial PRIMARY KEY,
      company_id integer NOT NULL,
      at timestamptz NOT NULL,
      queue_id integer,
      user_id integer,
      started integer NOT NULL DEFAULT 0,
      active integer NOT NULL DEFAULT 0,
      leads integer NOT NULL DEFAULT 0,
      accepted integer NOT NULL DEFAULT 0,
      wait_seconds bigint NOT NULL DEFAULT 0,
      resolved integer NOT NULL DEFAULT 0,
      support_seconds bigint NOT NULL DEFAULT 0,
      finished integer NOT NULL DEFAULT 0,
      rate smallint,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  await knex.raw('CREATE INDEX insight_deltas_company_at ON insight_deltas (company_id, at)');

  const rateColumns = Array.from({ length: 11 }, (_, rate) => `r${rate} integer NOT NULL DEFAULT 0`).join(', ');
  await knex.raw(`
    CREATE TABLE insight_daily (
      company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      day date NOT NULL,
      queue_id integer NOT NULL DEFAULT 0,
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
      PRIMARY KEY (company_id, day, queue_id, user_id)
    )`);

  // the report's list: a company's tickets by creation, newest first; and within a queue and status (the
  // report's usual filters), so that a page and its count visit only the range's entries of that queue
  await knex.raw('CREATE INDEX insights_tickets_company_created ON tickets (company_id, created_at DESC, id DESC)');
  await knex.raw(
    'CREATE INDEX insights_tickets_queue_status_created ON tickets (company_id, queue_id, status, created_at DESC, id DESC)',
  );

  // the company's time zone: its setting `timezone` (checked when saved, PUT /dashboard/timezone), else São Paulo
  await knex.raw(`
    CREATE FUNCTION insights_zone(company integer) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT coalesce((SELECT nullif(s.value, '') FROM settings s WHERE s.company_id = company AND s.key = 'timezone'),
                      'America/Sao_Paulo')
    $$`);

  // what a cycle adds to the figures, each part at its instant, times sign (1 or -1)
  await knex.raw(`
    CREATE FUNCTION insights_contributions(c insight_cycles, sign integer)
    RETURNS TABLE (at timestamptz, queue_id integer, user_id integer, started integer, active integer, leads integer,
                   accepted integer, wait_seconds bigint, resolved integer, support_seconds bigint, finished integer, rate smallint)
    -- the SET keeps Postgres from inlining it into a LATERAL join over the cycles, which its planner can't plan
    LANGUAGE sql IMMUTABLE SET search_path = public AS $$
      SELECT c.started_at, c.queue_id, c.user_id, sign, sign * c.active::int, sign * c.lead::int, 0, 0::bigint, 0, 0::bigint, 0, NULL::smallint
      UNION ALL
      SELECT c.accepted_at, c.queue_id, c.first_user_id, 0, 0, 0, sign,
             sign * greatest(0, floor(extract(epoch FROM c.accepted_at - c.started_at)))::bigint, 0, 0::bigint, 0, NULL::smallint
      WHERE c.accepted_at IS NOT NULL
      UNION ALL
      SELECT c.resolved_at, c.queue_id, c.user_id, 0, 0, 0, 0, 0::bigint, sign,
             sign * greatest(0, floor(extract(epoch FROM c.resolved_at - c.accepted_at)))::bigint, 0, NULL::smallint
      WHERE c.resolved_at IS NOT NULL AND c.accepted_at IS NOT NULL
      UNION ALL
      SELECT c.closed_at, c.queue_id, c.user_id, 0, 0, 0, 0, 0::bigint, 0, 0::bigint, sign, c.rate
      WHERE c.closed_at IS NOT NULL
    $$`);

  // a cycle changed: the difference of its contributions goes to the deltas (parts that didn't move cancel)
  await knex.raw(`
    CREATE FUNCTION insights_cycle_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('insights.rebuilding', true) = 'on' THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        -- the company itself is being deleted: its figures go with it
        IF NOT EXISTS (SELECT 1 FROM companies WHERE id = OLD.company_id) THEN RETURN NULL; END IF;
        INSERT INTO insight_deltas (company_id, at, queue_id, user_id, started, active, leads, accepted, wait_seconds,
                                    resolved, support_seconds, finished, rate)
        SELECT OLD.company_id, x.* FROM insights_contributions(OLD, -1) x;
        RETURN NULL;
      END IF;
      INSERT INTO insight_deltas (company_id, at, queue_id, user_id, started, active, leads, accepted, wait_seconds,
                                  resolved, support_seconds, finished, rate)
      SELECT NEW.company_id, at, queue_id, user_id, sum(started), sum(active), sum(leads), sum(accepted), sum(wait_seconds),
             sum(resolved), sum(support_seconds), sum(finished), rate
      FROM (
        SELECT * FROM insights_contributions(NEW, 1)
        UNION ALL
        SELECT * FROM insights_contributions(OLD, -1) WHERE TG_OP = 'UPDATE'
      ) x
      GROUP BY at, queue_id, user_id, rate
      HAVING sum(started) <> 0 OR sum(active) <> 0 OR sum(leads) <> 0 OR sum(accepted) <> 0 OR sum(wait_seconds) <> 0
          OR sum(resolved) <> 0 OR sum(support_seconds) <> 0 OR sum(finished) <> 0;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER insight_cycles_changed AFTER INSERT OR UPDATE OR DELETE ON insight_cycles
    FOR EACH ROW EXECUTE FUNCTION insights_cycle_changed()`);

  // the lead of a contact: the first cycle of its first ticket
  await knex.raw(`
    CREATE FUNCTION insights_refresh_lead(company integer, contact integer) RETURNS void LANGUAGE sql AS $$
      UPDATE insight_cycles c SET lead = (c.ticket_id = f.id AND c.seq = 1)
      FROM (SELECT coalesce((SELECT id FROM tickets WHERE company_id = company AND contact_id = contact
                             ORDER BY created_at, id LIMIT 1), 0) AS id) f
      WHERE c.company_id = company AND c.contact_id = contact AND c.lead IS DISTINCT FROM (c.ticket_id = f.id AND c.seq = 1)
    $$`);

  // a new ticket starts its first cycle, with the instants its row already tells (a ticket written closed)
  await knex.raw(`
    CREATE FUNCTION insights_ticket_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      taken boolean := NEW.user_id IS NOT NULL AND NEW.status IN ('open', 'group', 'nps', 'closed');
      ended timestamptz := CASE WHEN NEW.status = 'closed' THEN coalesce(NEW.closed_at, NEW.updated_at, NEW.created_at) END;
    BEGIN
      -- two first tickets of one contact at once: the second waits and sees the first
      PERFORM pg_advisory_xact_lock(hashtext('insights-contact'), NEW.contact_id);
      INSERT INTO insight_cycles (company_id, ticket_id, seq, contact_id, queue_id, user_id, first_user_id, whatsapp_id, status,
                                  is_group, active, lead, started_at, accepted_at, resolved_at, closed_at)
      VALUES (NEW.company_id, NEW.id, 1, NEW.contact_id, NEW.queue_id, NEW.user_id, CASE WHEN taken THEN NEW.user_id END,
              NEW.whatsapp_id, NEW.status, NEW.is_group, NEW.user_id IS NOT NULL,
              NOT EXISTS (SELECT 1 FROM tickets o WHERE o.company_id = NEW.company_id AND o.contact_id = NEW.contact_id
                          AND o.id <> NEW.id AND (o.created_at, o.id) < (NEW.created_at, NEW.id)),
              NEW.created_at, CASE WHEN taken THEN NEW.created_at END,
              CASE WHEN NEW.status = 'nps' THEN coalesce(NEW.updated_at, NEW.created_at) ELSE ended END, ended);
      -- an older ticket of the contact written later (an import) takes the lead from a newer one
      PERFORM insights_refresh_lead(NEW.company_id, NEW.contact_id);
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER tickets_insights_insert AFTER INSERT ON tickets
    FOR EACH ROW EXECUTE FUNCTION insights_ticket_inserted()`);

  // a ticket changed status, agent, queue, contact or connection: its running cycle follows, or a new one starts
  await knex.raw(`
    CREATE FUNCTION insights_ticket_updated() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      cycle insight_cycles;
      attended boolean := NEW.status IN ('open', 'group') AND NEW.user_id IS NOT NULL;
      -- the instant of the change: the row's updated_at when the writer moved it (every inbox writer does), else now
      at timestamptz := CASE WHEN NEW.updated_at IS DISTINCT FROM OLD.updated_at AND NEW.updated_at IS NOT NULL
                             THEN NEW.updated_at ELSE now() END;
    BEGIN
      SELECT * INTO cycle FROM insight_cycles WHERE ticket_id = NEW.id ORDER BY seq DESC LIMIT 1;
      IF NOT FOUND OR (OLD.status = 'closed' AND NEW.status <> 'closed') THEN
        INSERT INTO insight_cycles (company_id, ticket_id, seq, contact_id, queue_id, user_id, first_user_id, whatsapp_id,
                                    status, is_group, active, lead, started_at, accepted_at)
        VALUES (NEW.company_id, NEW.id, coalesce(cycle.seq, 0) + 1, NEW.contact_id, NEW.queue_id, NEW.user_id,
                CASE WHEN attended THEN NEW.user_id END, NEW.whatsapp_id, NEW.status, NEW.is_group, NEW.user_id IS NOT NULL,
                false, at, CASE WHEN attended THEN at END);
      ELSE
        UPDATE insight_cycles SET
          status = NEW.status,
          queue_id = NEW.queue_id,
          user_id = NEW.user_id,
          contact_id = NEW.contact_id,
          whatsapp_id = NEW.whatsapp_id,
          is_group = NEW.is_group,
          accepted_at = CASE WHEN accepted_at IS NULL AND attended THEN at ELSE accepted_at END,
          first_user_id = CASE WHEN accepted_at IS NULL AND attended THEN NEW.user_id ELSE first_user_id END,
          resolved_at = CASE
            WHEN NEW.status IN ('open', 'group') THEN NULL
            WHEN NEW.status IN ('nps', 'closed') THEN coalesce(resolved_at, at)
            ELSE resolved_at END,
          closed_at = CASE WHEN NEW.status = 'closed' THEN coalesce(closed_at, NEW.closed_at, at) END
        WHERE id = cycle.id;
      END IF;
      IF OLD.contact_id <> NEW.contact_id THEN
        UPDATE insight_cycles SET contact_id = NEW.contact_id WHERE ticket_id = NEW.id AND contact_id <> NEW.contact_id;
        PERFORM insights_refresh_lead(NEW.company_id, OLD.contact_id);
        PERFORM insights_refresh_lead(NEW.company_id, NEW.contact_id);
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER tickets_insights_update AFTER UPDATE OF status, user_id, queue_id, contact_id, whatsapp_id, is_group
    ON tickets FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.user_id IS DISTINCT FROM NEW.user_id
          OR OLD.queue_id IS DISTINCT FROM NEW.queue_id OR OLD.contact_id IS DISTINCT FROM NEW.contact_id
          OR OLD.whatsapp_id IS DISTINCT FROM NEW.whatsapp_id OR OLD.is_group IS DISTINCT FROM NEW.is_group)
    EXECUTE FUNCTION insights_ticket_updated()`);

  // a deleted ticket's cycles go (cascade); its contact's next ticket may become the lead
  await knex.raw(`
    CREATE FUNCTION insights_ticket_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM insights_refresh_lead(OLD.company_id, OLD.contact_id);
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER tickets_insights_delete AFTER DELETE ON tickets
    FOR EACH ROW EXECUTE FUNCTION insights_ticket_deleted()`);

  // a rating belongs to the cycle running when it was given
  await knex.raw(`
    CREATE FUNCTION insights_rating_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        UPDATE insight_cycles SET rate = NEW.rate
        WHERE id = (SELECT id FROM insight_cycles WHERE ticket_id = NEW.ticket_id ORDER BY seq DESC LIMIT 1);
      ELSIF TG_OP = 'UPDATE' THEN
        UPDATE insight_cycles SET rate = NEW.rate WHERE ticket_id = NEW.ticket_id AND rate IS NOT NULL;
      ELSE
        UPDATE insight_cycles SET rate = NULL WHERE ticket_id = OLD.ticket_id AND rate IS NOT NULL;
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER ticket_ratings_insights AFTER INSERT OR UPDATE OF rate OR DELETE ON ticket_ratings
    FOR EACH ROW EXECUTE FUNCTION insights_rating_changed()`);

  // the fold: deltas at least min_age old move into the days, in one statement
  const sums = (prefix: string) =>
    ['started', 'active', 'leads', 'accepted', 'wait_seconds', 'resolved', 'support_seconds', 'finished']
      .map((column) => `sum(${prefix}${column})`)
      .join(', ');
  const rateSums = (prefix: string) =>
    Array.from({ length: 11 }, (_, rate) => `coalesce(sum(${prefix}finished) FILTER (WHERE ${prefix}rate = ${rate}), 0)`).join(
      ', ',
    );
  const dailyColumns = [
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
  const addExcluded = dailyColumns.map((column) => `${column} = insight_daily.${column} + excluded.${column}`).join(', ');
  const allZero = (prefix: string) => dailyColumns.map((column) => `${prefix}${column} = 0`).join(' AND ');
  await knex.raw(`
    CREATE FUNCTION insights_fold(min_age interval) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      moved_count bigint;
      emptied jsonb;
    BEGIN
      WITH moved AS (
        DELETE FROM insight_deltas WHERE created_at <= now() - min_age RETURNING *
      ), zones AS (
        SELECT c.id, insights_zone(c.id) AS zone FROM companies c WHERE c.id IN (SELECT DISTINCT company_id FROM moved)
      ), folded AS (
        INSERT INTO insight_daily (company_id, day, queue_id, user_id, ${dailyColumns.join(', ')})
        SELECT m.company_id, (m.at AT TIME ZONE z.zone)::date, coalesce(m.queue_id, 0), coalesce(m.user_id, 0),
               ${sums('m.')}, ${rateSums('m.')}
        FROM moved m JOIN zones z ON z.id = m.company_id
        GROUP BY 1, 2, 3, 4
        ON CONFLICT (company_id, day, queue_id, user_id) DO UPDATE SET ${addExcluded}
        RETURNING company_id, day, queue_id, user_id, ${allZero('')} AS empty
      )
      SELECT (SELECT count(*) FROM moved),
             (SELECT jsonb_agg(jsonb_build_array(company_id, day, queue_id, user_id)) FROM folded WHERE empty)
      INTO moved_count, emptied;
      -- a bucket whose figures all moved elsewhere (a ticket that changed queue or agent) leaves no row behind
      IF emptied IS NOT NULL THEN
        DELETE FROM insight_daily d USING jsonb_array_elements(emptied) k
        WHERE d.company_id = (k->>0)::integer AND d.day = (k->>1)::date AND d.queue_id = (k->>2)::integer
          AND d.user_id = (k->>3)::integer AND ${allZero('d.')};
      END IF;
      RETURN moved_count;
    END $$`);

  // a company's days from its cycles, from scratch; ticket changes wait meanwhile (their deltas can't be written)
  await knex.raw(`
    CREATE FUNCTION insights_rebuild_daily(company integer) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE zone text := insights_zone(company);
    BEGIN
      LOCK TABLE insight_deltas IN SHARE ROW EXCLUSIVE MODE;
      DELETE FROM insight_deltas WHERE company_id = company;
      DELETE FROM insight_daily WHERE company_id = company;
      INSERT INTO insight_daily (company_id, day, queue_id, user_id, ${dailyColumns.join(', ')})
      SELECT x.company_id, x.day, x.queue_id, x.user_id, ${sums('x.')}, ${rateSums('x.')}
      FROM (
        SELECT c.company_id, (p.at AT TIME ZONE zone)::date AS day, coalesce(p.queue_id, 0) AS queue_id,
               coalesce(p.user_id, 0) AS user_id, p.started, p.active, p.leads, p.accepted, p.wait_seconds, p.resolved,
               p.support_seconds, p.finished, p.rate
        FROM insight_cycles c CROSS JOIN LATERAL insights_contributions(c, 1) p
        WHERE c.company_id = company
      ) x
      GROUP BY x.company_id, x.day, x.queue_id, x.user_id;
    END $$`);

  // the cycles of tickets written without the triggers, one per ticket, from the ticket, its logs and its rating
  await knex.raw(`
    CREATE FUNCTION insights_backfill(company integer) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE each_company integer;
    BEGIN
      PERFORM set_config('insights.rebuilding', 'on', true);
      DELETE FROM insight_cycles WHERE company IS NULL OR company_id = company;
      INSERT INTO insight_cycles (company_id, ticket_id, seq, contact_id, queue_id, user_id, first_user_id, whatsapp_id, status,
                                  is_group, active, lead, started_at, accepted_at, resolved_at, closed_at, rate)
      SELECT t.company_id, t.id, 1, t.contact_id, t.queue_id, t.user_id,
             coalesce(acc.user_id, CASE WHEN acc.created_at IS NULL AND t.user_id IS NOT NULL
                                         AND t.status IN ('open', 'group', 'nps', 'closed') THEN t.user_id END),
             t.whatsapp_id, t.status, t.is_group,
             coalesce(cre.user_id IS NOT NULL, false),
             row_number() OVER (PARTITION BY t.company_id, t.contact_id ORDER BY t.created_at, t.id) = 1,
             t.created_at,
             coalesce(acc.created_at, CASE WHEN t.user_id IS NOT NULL AND t.status IN ('open', 'group', 'nps', 'closed')
                                           THEN t.created_at END),
             CASE WHEN t.status = 'nps' THEN coalesce(res.created_at, t.updated_at)
                  WHEN t.status = 'closed' THEN coalesce(res.created_at, t.closed_at, t.updated_at) END,
             CASE WHEN t.status = 'closed' THEN coalesce(t.closed_at, t.updated_at) END,
             r.rate
      FROM tickets t
      LEFT JOIN LATERAL (
        SELECT l.created_at, l.user_id FROM ticket_logs l
        WHERE l.company_id = t.company_id AND l.ticket_id = t.id AND l.type IN ('open', 'receivedTransfer') AND l.user_id IS NOT NULL
        ORDER BY l.created_at, l.id LIMIT 1) acc ON true
      LEFT JOIN LATERAL (
        SELECT l.user_id FROM ticket_logs l
        WHERE l.company_id = t.company_id AND l.ticket_id = t.id AND l.type = 'create'
        ORDER BY l.created_at, l.id LIMIT 1) cre ON true
      LEFT JOIN LATERAL (
        SELECT l.created_at FROM ticket_logs l
        WHERE l.company_id = t.company_id AND l.ticket_id = t.id AND l.type IN ('nps', 'closed')
          AND l.created_at >= coalesce(acc.created_at, t.created_at)
        ORDER BY l.created_at, l.id LIMIT 1) res ON t.status IN ('nps', 'closed')
      LEFT JOIN ticket_ratings r ON r.ticket_id = t.id
      WHERE company IS NULL OR t.company_id = company;
      PERFORM set_config('insights.rebuilding', 'off', true);
      FOR each_company IN SELECT id FROM companies WHERE company IS NULL OR id = company LOOP
        PERFORM insights_rebuild_daily(each_company);
      END LOOP;
    END $$`);

  await knex.raw('SELECT insights_backfill(NULL)');
}

export async function down(knex: Knex): Promise<void> {
  for (const [trigger, table] of [
    ['ticket_ratings_insights', 'ticket_ratings'],
    ['tickets_insights_delete', 'tickets'],
    ['tickets_insights_update', 'tickets'],
    ['tickets_insights_insert', 'tickets'],
  ]) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
  }
  await knex.raw('DROP TABLE IF EXISTS insight_daily, insight_deltas, insight_cycles CASCADE');
  for (const fn of [
    'insights_backfill(integer)',
    'insights_rebuild_daily(integer)',
    'insights_fold(interval)',
    'insights_rating_changed()',
    'insights_ticket_deleted()',
    'insights_ticket_updated()',
    'insights_ticket_inserted()',
    'insights_refresh_lead(integer, integer)',
    'insights_zone(integer)',
  ]) {
    await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  }
  await knex.raw('DROP INDEX IF EXISTS insights_tickets_company_created');
  await knex.raw('DROP INDEX IF EXISTS insights_tickets_queue_status_created');
}
