import type { Knex } from 'knex';

/**
 * The words of each ticket's messages, for searching a rare or medium word inside message contents
 * (ticket-list.service.ts): `ticket_search_words` holds one row per distinct word of a ticket, and
 * `search_vocabulary` every word of the company once, with a trigram index to find the words that contain a
 * text. A search of one word reads the tickets from the words' range of the primary key (an index-only scan)
 * instead of reading every matching message from its own heap page to check its text: for "liquidificador"
 * on the bench data set, 1,644 messages in 1,578 pages (~6 ms of Postgres) against ~0.7 ms
 * (docs/benchmarks.md, "Inbox").
 *
 * A word is a run of the lowercased body between whitespace (space, tab, line breaks) or U+0001 (the search
 * documents' separator), so a text without those characters is found in a body exactly when it is part of one
 * of its words: `lower(body) LIKE '%text%'` ⇔ some word `LIKE '%text%'` — ILIKE's own meaning, as the search
 * documents have it (migration 0002). A word longer than 100 characters (a link, a code) is kept as pieces of
 * 100 starting every 50, so every text of up to 51 characters still lies whole in one piece and a key never
 * nears the index's size limit; longer texts are searched the messages' way.
 *
 * Kept by triggers like the search documents: a statement's new messages add their tickets' new words in one
 * insert (in word order, so two writers adding the same new vocabulary words wait for each other in the same
 * order); an edit, a move (a merge) or a delete rebuilds the tickets concerned, through
 * `inbox_rebuild_search_docs`, which now rebuilds both: their old words are read from their documents
 * (what their messages said until then) and deleted key by key, then their messages' words written again. A
 * ticket deleted takes its words with it (a trigger before the delete, while its documents are still there).
 * Only the writer holding a ticket's row adds its words (writers update a ticket before inserting its
 * messages, see migration 0002), so two never wait crosswise on a ticket's words. The vocabulary keeps words
 * nothing says any more: a search finding them finds no tickets.
 */
/**
 * The statement that adds the words of some messages (`source`, aliased `m`, narrowed by `where`) to their
 * tickets when they don't have them yet, and the words new to the company to its vocabulary — each in key
 * order, so two writers adding the same new words wait for each other in the same order.
 */
function addNewWords(source: string, where?: string): string {
  return `WITH new_words AS (
        INSERT INTO ticket_search_words (company_id, word, ticket_id)
        SELECT DISTINCT m.company_id, w, m.ticket_id FROM ${source}, inbox_search_words_of(m.body) w
        WHERE m.body <> ''${where ? ` AND ${where}` : ''}
        ORDER BY 1, 2, 3
        ON CONFLICT DO NOTHING
        RETURNING company_id, word)
      INSERT INTO search_vocabulary (company_id, word)
      SELECT DISTINCT company_id, word FROM new_words ORDER BY 1, 2
      ON CONFLICT DO NOTHING`;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE ticket_search_words (
      company_id integer NOT NULL,
      word text NOT NULL,
      ticket_id integer NOT NULL,
      PRIMARY KEY (company_id, word, ticket_id)
    )`);
  await knex.raw(`
    CREATE TABLE search_vocabulary (
      company_id integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      word text NOT NULL,
      PRIMARY KEY (company_id, word)
    )`);
  // New words wait in the index's pending list until it is merged (by a vacuum, or by the insert that fills
  // it), and every search reads the whole list: messages full of numbers (orders, protocols) add a new word
  // nearly each, so the list is kept small — at the default 4 MB a search's lookup took 2 ms instead of
  // 0.15; at 256 kB, ~0.4 ms at worst. Merging each word at once (fastupdate off) cost the receive ~0.14 ms
  // of Postgres per message on the bench (docs/benchmarks.md, "Inbox").
  await knex.raw(
    'CREATE INDEX search_vocabulary_word_trgm ON search_vocabulary USING gin (word gin_trgm_ops) WITH (gin_pending_list_limit = 256)',
  );

  // the words of a text (see above), repeats included: callers keep each once. Long words are cut only in
  // long texts, and short words never go through generate_series: ~7 s for the bench data set's million
  // messages, against ~70 s for the plain form (one series per word, then DISTINCT per message)
  await knex.raw(`
    CREATE FUNCTION inbox_search_words_of(body text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT w FROM regexp_split_to_table(lower(body), '[\\x01 \\t\\n\\r\\f\\v]+') w WHERE w <> '' AND length(w) <= 100
      UNION ALL
      SELECT substr(w, p, 100)
      FROM regexp_split_to_table(lower(body), '[\\x01 \\t\\n\\r\\f\\v]+') w, generate_series(1, length(w) - 50, 50) p
      WHERE length(body) > 100 AND length(w) > 100
    $$`);

  // adds the words of some tickets' messages that they don't have yet, and the new ones to the vocabulary,
  // each in key order; all tickets' (null) into an empty table: a plain sorted insert, several times faster
  await knex.raw(`
    CREATE FUNCTION inbox_add_search_words(ticket_ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF ticket_ids IS NULL THEN
        INSERT INTO ticket_search_words (company_id, word, ticket_id)
        SELECT DISTINCT m.company_id, w, m.ticket_id FROM messages m, inbox_search_words_of(m.body) w
        WHERE m.body <> '' ORDER BY 1, 2, 3;
        INSERT INTO search_vocabulary (company_id, word)
        SELECT DISTINCT company_id, word FROM ticket_search_words ORDER BY 1, 2
        ON CONFLICT DO NOTHING;
        RETURN;
      END IF;
      ${addNewWords('messages m', 'm.ticket_id = ANY(ticket_ids)')};
    END $$`);

  // a statement's new messages (the receive writes up to 50 in one)
  await knex.raw(`
    CREATE FUNCTION inbox_search_words_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${addNewWords('added m')};
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER messages_search_words_insert AFTER INSERT ON messages
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION inbox_search_words_insert()`);

  // the rebuild of some tickets' search documents (all when null) rebuilds their words around it
  await knex.raw('ALTER FUNCTION inbox_rebuild_search_docs(integer[]) RENAME TO inbox_rebuild_search_docs_only');
  await knex.raw(`
    CREATE FUNCTION inbox_rebuild_search_docs(ticket_ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF ticket_ids IS NULL THEN
        TRUNCATE ticket_search_words;
      ELSE
        -- what the tickets' messages said until now, key by key on the primary key
        DELETE FROM ticket_search_words w
        USING (SELECT DISTINCT d.company_id, x.word, d.ticket_id
               FROM ticket_search_docs d, inbox_search_words_of(d.doc) x(word) WHERE d.ticket_id = ANY(ticket_ids)) o
        WHERE w.company_id = o.company_id AND w.word = o.word AND w.ticket_id = o.ticket_id;
      END IF;
      PERFORM inbox_rebuild_search_docs_only(ticket_ids);
      PERFORM inbox_add_search_words(ticket_ids);
    END $$`);

  // a ticket deleted: its words, read from its documents before the delete cascades to them
  await knex.raw(`
    CREATE FUNCTION inbox_search_words_ticket_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ticket_search_words w
      USING (SELECT DISTINCT x.word FROM ticket_search_docs d, inbox_search_words_of(d.doc) x(word) WHERE d.ticket_id = OLD.id) o
      WHERE w.company_id = OLD.company_id AND w.word = o.word AND w.ticket_id = OLD.id;
      RETURN OLD;
    END $$`);
  await knex.raw(`CREATE TRIGGER tickets_search_words_delete BEFORE DELETE ON tickets
    FOR EACH ROW EXECUTE FUNCTION inbox_search_words_ticket_delete()`);

  await knex.raw('SELECT inbox_add_search_words(NULL)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS tickets_search_words_delete ON tickets');
  await knex.raw('DROP TRIGGER IF EXISTS messages_search_words_insert ON messages');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_words_ticket_delete()');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_words_insert()');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_add_search_words(integer[])');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_rebuild_search_docs(integer[])');
  await knex.raw('ALTER FUNCTION inbox_rebuild_search_docs_only(integer[]) RENAME TO inbox_rebuild_search_docs');
  await knex.raw('DROP FUNCTION IF EXISTS inbox_search_words_of(text)');
  await knex.raw('DROP TABLE IF EXISTS search_vocabulary');
  await knex.raw('DROP TABLE IF EXISTS ticket_search_words');
}
