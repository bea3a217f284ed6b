import type { ListQuery } from '../tickets/ticket-list.service';
import type { SearchPlan } from './search-plan';

/** A planned search (`planSearch`) as the SQL of the list's statements (`listTickets`). */

/**
 * The tickets whose words contain a pattern: a CTE `spelled` (the company's words that contain it, found
 * through the vocabulary's trigram index — materialized, so the planner can't fold it into the postings' scan
 * and read the company's whole vocabulary instead) and a `SELECT ticket_id` of the tickets that have them
 * (repeats when several words match).
 */
export function wordHitsSql(company: string, pattern: string): { cte: string; hits: string } {
  return {
    cte: `spelled AS MATERIALIZED (SELECT array_agg(v.word) AS words FROM search_vocabulary v
      WHERE v.company_id = ${company} AND v.word LIKE lower(${pattern}))`,
    hits: `SELECT w.ticket_id FROM ticket_search_words w WHERE w.company_id = ${company} AND w.word = ANY((SELECT words FROM spelled)::text[])`,
  };
}

/** A search as SQL: CTEs to put first and the condition on `tickets t`. */
interface SearchSql {
  ctes: string[];
  condition: string;
}

/**
 * The search: contact name (trigram index), the number's digits when the text looks like a phone number
 * (trigram index), the ticket id when it is one, and message contents (see `SearchPlan.messages`). The
 * tickets of the matching contacts are gathered once (`named`); for the `index` plan the tickets whose
 * messages match too, in one `IN (… UNION ALL …)` (each part runs once on its index); the probes are
 * conditions on each walked ticket. The texts reach the plan as the values of a CTE (`needle`), never as
 * parameters the planner looks at: its estimates, and so its plan, don't depend on the text, which lets
 * Postgres keep one generic plan per statement (planning a search cost it 2–3 ms per request).
 */
export function searchSql(query: ListQuery, plan: SearchPlan, joinGathered = false): SearchSql {
  const { params, company } = query;
  // the index asked for the key of the text only, the whole text checked on what it finds
  const key = plan.messages === 'index' || plan.messages === 'gather' ? plan.indexKey : null;
  const needle = `needle AS MATERIALIZED (SELECT ${params.add(plan.pattern)}::text AS pattern, lower(${params.add(plan.text)}::text) AS text${
    plan.numberPattern === null ? '' : `, ${params.add(plan.numberPattern)}::text AS number`
  }${key === null ? '' : `, ${params.add(key)}::text AS key`})`;
  const named = `named AS MATERIALIZED (SELECT tc.id FROM tickets tc WHERE tc.company_id = ${company} AND tc.contact_id IN (
      SELECT c.id FROM contacts c WHERE c.company_id = ${company} AND (c.name ILIKE (SELECT pattern FROM needle)${
        plan.numberPattern === null ? '' : ' OR c.number LIKE (SELECT number FROM needle)'
      })))`;
  const ticketId = plan.ticketId === null ? null : `${params.add(plan.ticketId)}::integer`;
  const deleted = query.hideDeleted ? ' AND NOT m.is_deleted' : '';
  const messageMatch = `m.company_id = ${company} AND m.body ILIKE (SELECT pattern FROM needle)${deleted}`;
  // lower(body) LIKE lower(pattern) is ILIKE, in a form no index answers
  const indexedMatch =
    key === null
      ? messageMatch
      : `m.company_id = ${company} AND m.body ILIKE (SELECT key FROM needle)
        AND lower(m.body) LIKE lower((SELECT pattern FROM needle))${deleted}`;
  const words = plan.source === 'words' ? wordHitsSql(company, '(SELECT pattern FROM needle)') : null;
  const matchingTickets = words?.hits ?? `SELECT m.ticket_id FROM messages m WHERE ${indexedMatch}`;
  // the words the text is part of, when the tickets are read from them
  const spelled = words && (plan.messages === 'index' || plan.messages === 'gather') ? [words.cte] : [];
  if (plan.messages === 'index' || plan.messages === 'none') {
    const parts = ['SELECT id FROM named'];
    if (ticketId !== null) parts.push(`SELECT ${ticketId}`);
    if (plan.messages === 'index') parts.push(matchingTickets);
    return { ctes: [needle, named, ...spelled], condition: `t.id IN (${parts.join(' UNION ALL ')})` };
  }
  if (plan.messages === 'gather' && joinGathered) {
    // every matching ticket (message, contact, id) once: one hash the parts of a walk join to (listTickets)
    const ids = [`SELECT h.ticket_id FROM (${matchingTickets}) h`, 'SELECT id FROM named'];
    if (ticketId !== null) ids.push(`SELECT ${ticketId}`);
    const gathered = `gathered AS MATERIALIZED (${ids.join(' UNION ')})`;
    return { ctes: [needle, named, ...spelled, gathered], condition: 't.id IN (SELECT ticket_id FROM gathered)' };
  }
  const parts = ['t.id IN (SELECT id FROM named)'];
  if (ticketId !== null) parts.push(`t.id = ${ticketId}`);
  if (plan.messages === 'gather') {
    // the tickets of the matching messages, once; each walked ticket is checked against them (a hash — the
    // OR keeps it a filter of the walk in list order, which stops at the cap, rather than a join from the ids)
    const gathered = `gathered AS MATERIALIZED (SELECT DISTINCT h.ticket_id AS id FROM (${matchingTickets}) h)`;
    parts.push('t.id IN (SELECT id FROM gathered)');
    return { ctes: [needle, named, ...spelled, gathered], condition: `(${parts.join(' OR ')})` };
  }
  // OFFSET 0 keeps each EXISTS a probe of this ticket (never turned into a company-wide join)
  parts.push(
    plan.messages === 'probe'
      ? 'EXISTS (SELECT 1 FROM ticket_search_docs d WHERE d.ticket_id = t.id AND strpos(d.doc, (SELECT text FROM needle)) > 0 OFFSET 0)'
      : `EXISTS (SELECT 1 FROM messages m WHERE m.ticket_id = t.id AND ${messageMatch} OFFSET 0)`,
  );
  return { ctes: [needle, named], condition: `(${parts.join(' OR ')})` };
}
