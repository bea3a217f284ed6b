import type { Knex } from 'knex';

/**
 * What a ticket's messages say, for "search inside message contents" (ticket-list.service.ts): each
 * ticket's message bodies lowercased and joined by U+0001, in parts of about 1,000 bytes. A search of a
 * common or medium text walks the visible tickets in list order and reads one or two short rows per
 * ticket instead of every message (docs/benchmarks.md, "Inbox"). `doc LIKE/strpos lower(text)` is exactly
 * `body ILIKE '%text%'` of one of its messages (ILIKE lowercases both sides the same way) as long as the
 * text holds no U+0001, which the search checks.
 *
 * Kept by triggers on `messages`, so every writer (receive, agents, bots, imports, merges, test kits) keeps
 * it whole: a new message appends to the ticket's last part (a new part past 1,000 bytes: an append
 * rewrites at most that much, below the size Postgres would compress); a body edited, a message moved to
 * another ticket (a contact merge) or deleted rebuilds the parts of the tickets concerned. Writers update a ticket before
 * they insert its messages (the receive in the same statement, an agent's send first), so every writer takes
 * the ticket's row before its parts and two never wait for each other crosswise; the rebuilds, rare, lock
 * the tickets first themselves. (Locking the ticket in the append too cost ~150 µs a message: a second write
 * of the ticket's page.) Measured on the bench data set: the append costs ~25–50 µs of Postgres CPU per
 * message; a trigram index on the parts would cost ~450 µs more (every append re-indexes its part), so
 * rare texts keep the messages' own trigram index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE ticket_search_docs (
      ticket_id integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
      part smallint NOT NULL,
      company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      doc text NOT NULL,
      PRIMARY KEY (ticket_id, part)
    )`);
  // read only through a ticket of the company (t.id = ticket_id): the ticket's key leads the index, as the
  // foreign key's cascade needs too

  // (re)builds the parts of some tickets (all when null) from their messages
  await knex.raw(`
    CREATE FUNCTION inbox_rebuild_search_docs(ticket_ids integer[]) RETURNS void LANGUAGE sql AS $$
      DELETE FROM ticket_search_docs WHERE ticket_ids IS NULL OR ticket_id = ANY(ticket_ids);
      INSERT INTO ticket_search_docs (ticket_id, part, company_id, doc)
      SELECT ticket_id, (dense_rank() OVER (PARTITION BY ticket_id ORDER BY chunk) - 1)::smallint, company_id,
             string_agg(lower(body), E'\\x01' ORDER BY id)
      FROM (SELECT ticket_id, company_id, id, body,
                   (sum(octet_length(body) + 1) OVER (PARTITION BY ticket_id ORDER BY id) - octet_length(body) - 1) / 1000 AS chunk
            FROM messages WHERE body <> '' AND (ticket_ids IS NULL OR ticket_id = ANY(ticket_ids))) m
      GROUP BY ticket_id, company_id, chunk;
    $$`);

  await knex.raw(`
    CREATE FUNCTION inbox_search_docs_append() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      last_part smallint;
    BEGIN
      UPDATE ticket_search_docs SET doc = doc || E'\\x01' || lower(NEW.body)
        WHERE ticket_id = NEW.ticket_id
          AND part = (SELECT max(part) FROM ticket_search_docs WHERE ticket_id = NEW.ticket_id)
          AND octet_length(doc) < 1000
        RETURNING part INTO last_part;
      IF last_part IS NULL THEN
        INSERT INTO ticket_search_docs (ticket_id, part, company_id, doc)
        SELECT NEW.ticket_id, coalesce(max(part) + 1, 0), NEW.company_id, lower(NEW.body)
        FROM ticket_search_docs WHERE ticket_id = NEW.ticket_id;
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER messages_search_docs_insert AFTER INSERT ON messages
    FOR EACH ROW WHEN (NEW.body <> '') EXECUTE FUNCTION inbox_search_docs_append()`);

  // a body edited or a message moved to another ticket: each row notes its tickets (transaction-local), the
  // statement rebuilds them once (a merge moves a whole ticket's messages in one statement)
  await knex.raw(`
    CREATE FUNCTION inbox_search_docs_note() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM set_config('inbox.search_docs_stale',
        coalesce(current_setting('inbox.search_docs_stale', true), '') || OLD.ticket_id || ',' || NEW.ticket_id || ',', true);
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER messages_search_docs_update AFTER UPDATE OF body, ticket_id ON messages
    FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.ticket_id IS DISTINCT FROM NEW.ticket_id)
    EXECUTE FUNCTION inbox_search_docs_note()`);
  await knex.raw(`
    CREATE FUNCTION inbox_search_docs_rebuild_noted() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      ids integer[];
    BEGIN
      SELECT array_agg(DISTINCT id::integer) INTO ids
        FROM unnest(string_to_array(current_setting('inbox.search_docs_stale', true), ',')) id WHERE id <> '';
      IF ids IS NOT NULL THEN
        PERFORM set_config('inbox.search_docs_stale', '', true);
        PERFORM 1 FROM tickets WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
        PERFORM inbox_rebuild_search_docs(ids);
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER messages_search_docs_updated AFTER UPDATE OF body, ticket_id ON messages
    FOR EACH STATEMENT EXECUTE FUNCTION inbox_search_docs_rebuild_noted()`);

  await knex.raw(`
    CREATE FUNCTION inbox_search_docs_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      ids integer[];
    BEGIN
      SELECT array_agg(DISTINCT ticket_id) INTO ids FROM removed WHERE body <> '';
      IF ids IS NOT NULL THEN
        PERFORM 1 FROM tickets WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
        PERFORM inbox_rebuild_search_docs(ids);
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER messages_search_docs_delete AFTER DELETE ON messages
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION inbox_search_docs_delete()`);

  await knex.raw('SELECT inbox_rebuild_search_docs(NULL)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS messages_search_docs_delete ON messages');
  await knex.raw('DROP TRIGGER IF EXISTS messages_search_docs_updated ON messages');
  await knex.raw('DROP TRIGGER IF EXISTS messages_search_docs_update ON messages');
  await knex.raw('DROP TRIGGER IF EXISTS messages_search_docs_insert ON messages');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_docs_delete()');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_docs_rebuild_noted()');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_docs_note()');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_docs_append()');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_rebuild_search_docs(integer[])');
  await knex.raw('DROP TABLE IF EXISTS ticket_search_docs');
}
