import type { Knex } from 'knex';

/**
 * A ticket's tags — its own and its contact's, which the API shows together — as ids on the ticket's row
 * (`tag_ids`, sorted), so that a list shows them without looking each ticket's tags up: two index probes
 * per ticket (ticket_tags, contact_tags) were a third of the Postgres time of a page of 40, though most
 * tickets carry none (docs/benchmarks.md, "Inbox"). The tag rows stay the truth: triggers keep the ids
 * whatever writes them (the tag routes, the kanban's lanes, a contact merge, a ticket moved to another
 * contact, a tag deleted). The column is in no index, so its updates are HOT, and nothing on the path of a
 * message touches it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE tickets ADD COLUMN tag_ids integer[] NOT NULL DEFAULT '{}'`);

  // the tags of a ticket and of its contact, sorted, without repeats
  await knex.raw(`
    CREATE FUNCTION inbox_ticket_tag_ids(ticket integer, contact integer) RETURNS integer[] LANGUAGE sql STABLE AS $$
      SELECT coalesce(array_agg(tag_id ORDER BY tag_id), '{}') FROM (
        SELECT tag_id FROM ticket_tags WHERE ticket_id = ticket
        UNION SELECT tag_id FROM contact_tags WHERE contact_id = contact) x
    $$`);

  // sets the ids of some tickets: by id, and every ticket of some contacts ([company, contact] pairs); each on
  // its own index (nulls: none)
  await knex.raw(`
    CREATE FUNCTION inbox_refresh_tag_ids(ticket_ids integer[], contacts jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF ticket_ids IS NOT NULL THEN
        UPDATE tickets t SET tag_ids = x.ids
        FROM (SELECT id, inbox_ticket_tag_ids(id, contact_id) AS ids FROM tickets WHERE id = ANY(ticket_ids)) x
        WHERE t.id = x.id AND t.tag_ids IS DISTINCT FROM x.ids;
      END IF;
      IF contacts IS NOT NULL THEN
        UPDATE tickets t SET tag_ids = x.ids
        FROM (SELECT t2.id, inbox_ticket_tag_ids(t2.id, t2.contact_id) AS ids
              FROM jsonb_array_elements(contacts) c
              JOIN tickets t2 ON t2.company_id = (c->>0)::integer AND t2.contact_id = (c->>1)::integer) x
        WHERE t.id = x.id AND t.tag_ids IS DISTINCT FROM x.ids;
      END IF;
    END $$`);
  // every ticket (this migration, and a data load that ran without triggers)
  await knex.raw(`
    CREATE FUNCTION inbox_rebuild_tag_ids() RETURNS void LANGUAGE sql AS $$
      UPDATE tickets t SET tag_ids = x.ids
      FROM (SELECT id, inbox_ticket_tag_ids(id, contact_id) AS ids FROM tickets) x
      WHERE t.id = x.id AND t.tag_ids IS DISTINCT FROM x.ids
    $$`);

  for (const [event, table] of [
    ['INSERT', 'REFERENCING NEW TABLE AS changed'],
    ['DELETE', 'REFERENCING OLD TABLE AS changed'],
  ] as const) {
    const name = event.toLowerCase();
    await knex.raw(`
      CREATE FUNCTION inbox_ticket_tags_${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM inbox_refresh_tag_ids((SELECT array_agg(DISTINCT ticket_id) FROM changed), NULL);
        RETURN NULL;
      END $$`);
    await knex.raw(`CREATE TRIGGER ticket_tags_tag_ids_${name} AFTER ${event} ON ticket_tags
      ${table} FOR EACH STATEMENT EXECUTE FUNCTION inbox_ticket_tags_${name}()`);
    await knex.raw(`
      CREATE FUNCTION inbox_contact_tags_${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM inbox_refresh_tag_ids(NULL,
          (SELECT jsonb_agg(DISTINCT jsonb_build_array(company_id, contact_id)) FROM changed));
        RETURN NULL;
      END $$`);
    await knex.raw(`CREATE TRIGGER contact_tags_tag_ids_${name} AFTER ${event} ON contact_tags
      ${table} FOR EACH STATEMENT EXECUTE FUNCTION inbox_contact_tags_${name}()`);
  }
  // a tag row changed in place (rare): both sides
  await knex.raw(`
    CREATE FUNCTION inbox_ticket_tags_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM inbox_refresh_tag_ids((SELECT array_agg(DISTINCT ticket_id) FROM (
        SELECT ticket_id FROM old_rows UNION SELECT ticket_id FROM new_rows) x), NULL);
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER ticket_tags_tag_ids_update AFTER UPDATE ON ticket_tags
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_ticket_tags_update()`);
  await knex.raw(`
    CREATE FUNCTION inbox_contact_tags_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM inbox_refresh_tag_ids(NULL, (SELECT jsonb_agg(DISTINCT jsonb_build_array(company_id, contact_id)) FROM (
        SELECT company_id, contact_id FROM old_rows UNION SELECT company_id, contact_id FROM new_rows) x));
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER contact_tags_tag_ids_update AFTER UPDATE ON contact_tags
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_contact_tags_update()`);

  // a new ticket of a tagged contact, a ticket moved to another contact (a merge): its ids from the rows
  await knex.raw(`
    CREATE FUNCTION inbox_tickets_tag_ids() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.tag_ids := inbox_ticket_tag_ids(NEW.id, NEW.contact_id);
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER tickets_tag_ids_insert BEFORE INSERT ON tickets
    FOR EACH ROW EXECUTE FUNCTION inbox_tickets_tag_ids()`);
  await knex.raw(`CREATE TRIGGER tickets_tag_ids_contact BEFORE UPDATE OF contact_id ON tickets
    FOR EACH ROW WHEN (OLD.contact_id IS DISTINCT FROM NEW.contact_id) EXECUTE FUNCTION inbox_tickets_tag_ids()`);

  await knex.raw('SELECT inbox_rebuild_tag_ids()');
}

export async function down(knex: Knex): Promise<void> {
  for (const [trigger, table] of [
    ['tickets_tag_ids_contact', 'tickets'],
    ['tickets_tag_ids_insert', 'tickets'],
    ['contact_tags_tag_ids_update', 'contact_tags'],
    ['ticket_tags_tag_ids_update', 'ticket_tags'],
    ['contact_tags_tag_ids_delete', 'contact_tags'],
    ['ticket_tags_tag_ids_delete', 'ticket_tags'],
    ['contact_tags_tag_ids_insert', 'contact_tags'],
    ['ticket_tags_tag_ids_insert', 'ticket_tags'],
  ]) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${trigger} ON ${table}`);
  }
  for (const fn of [
    'inbox_tickets_tag_ids()',
    'inbox_contact_tags_update()',
    'inbox_ticket_tags_update()',
    'inbox_contact_tags_delete()',
    'inbox_ticket_tags_delete()',
    'inbox_contact_tags_insert()',
    'inbox_ticket_tags_insert()',
    'inbox_rebuild_tag_ids()',
    'inbox_refresh_tag_ids(integer[], jsonb)',
    'inbox_ticket_tag_ids(integer, integer)',
  ]) {
    await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  }
  await knex.raw('ALTER TABLE tickets DROP COLUMN IF EXISTS tag_ids');
}
