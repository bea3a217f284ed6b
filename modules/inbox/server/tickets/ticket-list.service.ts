import { type BatcherStats, perInstance, preparedStatementName, StatementBatcher } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { TICKET_STATUSES, TICKETS_PAGE_SIZE, type Ticket, type TicketStatus } from '../../shared/types';
import { type JsonText, renderTicket, TICKET_RENDER_COLUMNS, TICKET_RENDER_WIDTH } from '../json-sql';
import { rawRows, type Statement } from '../prepared';
import { TICKET_ROW_JOINS } from './serializer';
import { seesEverything, type Viewer, viewersListsSql } from './visibility';

/** The filters of `GET /tickets` (docs/inbox-api.md "Tickets"), already parsed. */
export interface TicketListFilters {
  searchParam?: string;
  searchOnMessages?: boolean;
  /** From 1. */
  pageNumber?: number;
  /** The tab's status; none for the search view. */
  status?: TicketStatus;
  showAll?: boolean;
  queueIds?: number[];
  /** Tag ids: a ticket matches when it or its contact carries any of them. */
  tags?: number[];
  /** Assigned users (admins only; ignored for others). */
  users?: number[];
  whatsapps?: number[];
  /** Statuses of the search view (ignored when `status` is given). */
  statusFilter?: TicketStatus[];
  withUnreadMessages?: boolean;
  /** Created that calendar day (YYYY-MM-DD, server time). */
  date?: string;
  /** Updated that calendar day (YYYY-MM-DD, server time). */
  updatedAt?: string;
  /** `DESC` (default): newest `updatedAt` first. */
  sortTickets?: 'ASC' | 'DESC';
}

export interface TicketListPage {
  tickets: Ticket[];
  hasMore: boolean;
  /** Tickets of the whole filtered list (a tab's badge). */
  count: number;
}

/** The JSON text of a `TicketListPage`, as Postgres built it (sent as it is). */
export type TicketListJson = JsonText<TicketListPage>;

/** A status as an SQL literal (only the six statuses of TICKET_STATUSES pass). */
function statusLiteral(status: TicketStatus): string {
  if (!(TICKET_STATUSES as readonly string[]).includes(status)) throw new Error(`not a ticket status: ${status}`);
  return `'${status}'`;
}

/** A statement for an SQL text, named after it (the same text, the same prepared statement). */
function statementOf(text: string): Statement {
  return { name: preparedStatementName('inbox_list', text), text };
}

/** `[start, end)` of a YYYY-MM-DD calendar day in the server's time zone. */
export function dayRange(day: string): [Date, Date] {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return [new Date(year, month - 1, date), new Date(year, month - 1, date + 1)];
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The bound values of one statement: `add` answers the placeholder (`$n`) of a value, `typed` the value as
 * SQL of a type. In an opaque statement `typed` hides the value from the planner behind a subquery: its
 * estimates, and so the costs it compares, are then the same for every value. Postgres plans a prepared
 * statement for its values five times, then keeps one generic plan unless plans for the values look
 * cheaper; a tab's statement is one of those (its own tickets' count, the queues' array size, the page's
 * limit), so it was planned anew at every request (~2.5 ms of Postgres each, a page's work four times over:
 * docs/benchmarks.md, "Inbox").
 */
class Params {
  readonly values: unknown[] = [];

  constructor(private readonly opaque = false) {}

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  typed(value: unknown, type: 'int' | 'int[]' | 'timestamptz'): string {
    const placeholder = `${this.add(value)}::${type}`;
    return this.opaque ? `(SELECT ${placeholder})::${type}` : placeholder;
  }
}

/** How a text search is run (see `planSearch`). */
interface SearchPlan {
  /** The text as typed (NULs removed, trimmed). */
  text: string;
  pattern: string;
  /** The number's digits as a pattern, when the text looks like a phone number. */
  numberPattern: string | null;
  /** The text as a ticket id, when it is one. */
  ticketId: number | null;
  /**
   * The LIKE pattern the messages' trigram index is asked for instead of the whole text's (`indexKeyOf`,
   * `prefixKeyOf`), the whole text then checked on what it finds; null: the whole text's.
   */
  indexKey: string | null;
  /**
   * Message contents: not searched (`none`); the ids of the tickets whose messages match gathered once
   * (see `source`) and read (`index`: a rare text); the same ids gathered, then the visible tickets checked
   * against them — walked in list order for an admin, each part of an agent's lists read whole and joined
   * (`gather`: a text in a thousand to a few thousand tickets, which would cost more to read than to walk
   * past); or
   * the visible tickets walked in list order, each probed until the page and the count are full (`probe`: a
   * common or medium text, most walked tickets match). A probe reads the ticket's search document
   * (migration 0002) — one or two short rows — or, when deleted messages must be left out (LGPD) or the
   * text holds the documents' separator, the ticket's messages (`probe-messages`).
   */
  messages: 'none' | 'index' | 'gather' | 'probe' | 'probe-messages';
  /**
   * Where `index` and `gather` read the tickets whose messages match: the tickets' words (`words`, migration
   * 0004: an index-only scan of the words that contain the text, see `searchesWords`), or the messages
   * themselves through their trigram index, each checked (`messages`: a text of several words, a short or
   * long one, or deleted messages to leave out).
   */
  source: 'words' | 'messages';
}

/**
 * How a message search is run, by how many messages match its text (counted, see `countedMessageMatches`):
 * up to `gatherAboveMessages` their tickets are read (`index`), up to `probeAboveMessages` the visible tickets
 * are walked past their ids (`gather`), above it each walked ticket is probed (`probe`); a text looked up in the
 * tickets' words (`searchesWords`) is counted in tickets instead, against `gatherAboveTickets` and
 * `probeAboveTickets` (gathering costs a key a ticket there: "estorno"'s 9,349 tickets still probe faster). Measured on the bench
 * data set (docs/benchmarks.md, "Inbox"): the trigram index costs about 2–4 µs per matching message, reading
 * a ticket about 2 µs, walking past one on an index well under 1 µs, probing a search document 1–2 µs; a walk
 * stops after SEARCH_COUNT_LIMIT matches. `recentWindow`: how many of a profile user's newest visible
 * tickets a walk merges first (see `listTickets`), enough for a text in one ticket out of fifteen to fill
 * the count's cap. Tests lower them to reach every path with a few rows.
 */
export const SEARCH_TUNING = {
  gatherAboveMessages: 1_000,
  probeAboveMessages: 4_000,
  gatherAboveTickets: 1_000,
  probeAboveTickets: 4_000,
  recentWindow: 1_500,
};
/** A text search counts up to this many tickets (docs/inbox-api.md): exact below it. */
export const SEARCH_COUNT_LIMIT = 100;
/** The separator of the search documents' messages (migration 0002). */
const DOC_SEPARATOR = '\u0001';

/** How a recent text was searched, per company and text: a stale choice only costs speed. */
const strategies = new Map<
  string,
  { messages: 'index' | 'gather' | 'probe'; indexKey: string | null; source: SearchPlan['source']; until: number }
>();
const STRATEGY_CACHE_SIZE = 1_000;
const STRATEGY_CACHE_MS = 60_000;

/**
 * The part of a search text the messages' trigram index is asked for: a number of five digits or more in a
 * text of several words (a protocol, an order), else the whole text (or a word's prefix, `prefixKeyOf`). The
 * index's cost is that of the commonest trigram it must intersect ("protocolo 06855387": ~4.7 ms; "06855387":
 * ~0.5 ms on the bench data set), and such a number is far rarer than the words around it; the whole text is
 * checked on what it finds. Null: the whole text.
 */
export function indexKeyOf(text: string): string | null {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length < 2) return null;
  const numbers = words.filter((word) => (word.match(/\d/g)?.length ?? 0) >= 5).sort((a, b) => b.length - a.length);
  return numbers[0] ?? null;
}

/** How many characters of a long word `prefixKeyOf` takes (four trigrams). */
const PREFIX_KEY_LENGTH = 6;

/**
 * A candidate key for the messages' trigram index: the first six characters of the text's longest word,
 * when it has eight or more. The index intersects every trigram of what it is asked for, and the dearest are
 * the commonest: in Portuguese those of word endings ("-ador", "-ado", "-ção"). On the bench data set
 * "%liquidificador%" costs the index ~2.7 ms and "%liquid%" ~0.4 ms, for the same 1,644 messages. A prefix
 * can be common ("inform…") where the word is rare: `planSearch` keeps it only when it finds few more
 * messages than the text (counted). Null: no word long enough.
 */
export function prefixKeyOf(text: string): string | null {
  const longest = text
    .split(/\s+/)
    .map((word) => Array.from(word))
    .reduce<string[]>((best, word) => (word.length > best.length ? word : best), []);
  return longest.length >= PREFIX_KEY_LENGTH + 2 ? longest.slice(0, PREFIX_KEY_LENGTH).join('') : null;
}

/** A prefix key is kept when it finds at most this many times the text's messages (plus a few). */
const PREFIX_KEY_SLACK = { ratio: 1.25, rows: 50 };

/**
 * How many of the company's messages match a pattern, counted for real up to `limit` (the planner's
 * estimate for `ILIKE '%word%'` is often off by several times, and the choice turns on it); `key`, the
 * pattern of `indexKeyOf`, is what the trigram index is asked for.
 */
async function countedMessageMatches(
  knex: Knex,
  companyId: number,
  pattern: string,
  key: string | null,
  limit: number,
): Promise<number> {
  const [row] = await rawRows(knex, COUNT_MATCHES, [companyId, key ?? pattern, pattern, limit]);
  return Number(row?.[0] ?? 0);
}
const COUNT_MATCHES: Statement = {
  name: 'inbox_search_count_matches',
  text: `SELECT count(*) FROM (SELECT 1 FROM messages m
    WHERE m.company_id = $1 AND m.body ILIKE $2 AND lower(m.body) LIKE lower($3) LIMIT $4) s`,
};

/**
 * How many of the company's messages match `key` (read through the trigram index, up to `limit`) and how
 * many of those match `pattern` (a text of which `key` is a part): both exact when fewer than `limit` match
 * the key.
 */
async function countedKeyMatches(
  knex: Knex,
  companyId: number,
  key: string,
  pattern: string,
  limit: number,
): Promise<{ keyed: number; matches: number }> {
  const [row] = await rawRows(knex, COUNT_KEY_MATCHES, [companyId, key, pattern, limit]);
  return { keyed: Number(row?.[0] ?? 0), matches: Number(row?.[1] ?? 0) };
}
const COUNT_KEY_MATCHES: Statement = {
  name: 'inbox_search_count_key_matches',
  text: `SELECT count(*), count(*) FILTER (WHERE lower(s.body) LIKE lower($3)) FROM (SELECT m.body FROM messages m
    WHERE m.company_id = $1 AND m.body ILIKE $2 LIMIT $4) s`,
};

/** The longest text the words answer: a long word is kept as pieces of 100 characters every 50 (migration 0004). */
const SEARCH_WORD_MAX_LENGTH = 51;
/** The shortest: the vocabulary's trigram index needs three characters to narrow anything. */
const SEARCH_WORD_MIN_LENGTH = 3;

/**
 * Whether a text is looked up in the tickets' words (migration 0004): one word — none of the characters
 * the words are split on — of 3 to 51 characters. Such a text is part of a message's lowercased body
 * exactly when it is part of one of its words.
 */
export function searchesWords(text: string): boolean {
  const characters = Array.from(text);
  return (
    characters.length >= SEARCH_WORD_MIN_LENGTH &&
    characters.length <= SEARCH_WORD_MAX_LENGTH &&
    !characters.some((character) => SEARCH_WORD_SEPARATORS.has(character))
  );
}
/** What the words are split on (migration 0004): ASCII whitespace and the search documents' separator. */
export const SEARCH_WORD_SEPARATORS = new Set([' ', '\t', '\n', '\r', '\f', '\v', '\u0001']);

/**
 * The tickets whose words contain a pattern: a CTE `spelled` (the company's words that contain it, found
 * through the vocabulary's trigram index — materialized, so the planner can't fold it into the postings' scan
 * and read the company's whole vocabulary instead) and a `SELECT ticket_id` of the tickets that have them
 * (repeats when several words match).
 */
function wordHitsSql(company: string, pattern: string): { cte: string; hits: string } {
  return {
    cte: `spelled AS MATERIALIZED (SELECT array_agg(v.word) AS words FROM search_vocabulary v
      WHERE v.company_id = ${company} AND v.word LIKE lower(${pattern}))`,
    hits: `SELECT w.ticket_id FROM ticket_search_words w WHERE w.company_id = ${company} AND w.word = ANY((SELECT words FROM spelled)::text[])`,
  };
}

/** How many tickets' words contain a pattern, counted up to a limit (an index-only count). */
async function countedWordMatches(knex: Knex, companyId: number, pattern: string, limit: number): Promise<number> {
  const [row] = await rawRows(knex, COUNT_WORD_MATCHES, [companyId, pattern, limit]);
  return Number(row?.[0] ?? 0);
}
const COUNT_WORD_MATCHES: Statement = {
  name: 'inbox_search_count_word_matches',
  text: (({ cte, hits }) => `WITH ${cte} SELECT count(*) FROM (${hits} LIMIT $3) s`)(wordHitsSql('$1', '$2')),
};

/** Decides how a search text is matched: contact name, number digits, ticket id, message contents. */
export async function planSearch(
  knex: Knex,
  companyId: number,
  text: string,
  onMessages: boolean,
  settings: Record<string, string>,
): Promise<SearchPlan> {
  const pattern = containsPattern(text);
  const digits = text.replace(/\D/g, '');
  const phoneLike = digits.length > 0 && /^[\d\s()+\-./]+$/.test(text);
  let messages: SearchPlan['messages'] = 'none';
  let indexKey: string | null = null;
  const hideDeleted = settings.enableLGPD === 'enabled' && settings.lgpdDeleteMessage === 'enabled';
  // the words can't tell a deleted message's from another's
  let source: SearchPlan['source'] = onMessages && !hideDeleted && searchesWords(text) ? 'words' : 'messages';
  if (onMessages) {
    const { gatherAboveMessages, probeAboveMessages, gatherAboveTickets, probeAboveTickets } = SEARCH_TUNING;
    const [gather, probe] =
      source === 'words' ? [gatherAboveTickets, probeAboveTickets] : [gatherAboveMessages, probeAboveMessages];
    const cacheKey = `${companyId}:${source}:${gather}:${probe}:${pattern}`;
    const known = strategies.get(cacheKey);
    let strategy: 'index' | 'gather' | 'probe';
    if (known && known.until > Date.now()) ({ messages: strategy, indexKey, source } = known);
    else if (source === 'words') {
      // tickets, not messages: gathering costs a key per ticket here
      const matches = await countedWordMatches(knex, companyId, pattern, probe + 1);
      strategy = matches > probe ? 'probe' : matches > gather ? 'gather' : 'index';
    } else {
      const numberKey = indexKeyOf(text);
      indexKey = numberKey === null ? null : containsPattern(numberKey);
      const prefix = numberKey === null ? prefixKeyOf(text) : null;
      let matches: number | null = null;
      if (prefix !== null) {
        const prefixPattern = containsPattern(prefix);
        const counted = await countedKeyMatches(knex, companyId, prefixPattern, pattern, probe + 1);
        // fewer than the limit: both counts are exact; a prefix finding many more messages than the text is
        // dearer than the text's own trigrams (each found message is read to be checked)
        if (counted.keyed <= probe) {
          matches = counted.matches;
          if (counted.keyed <= matches * PREFIX_KEY_SLACK.ratio + PREFIX_KEY_SLACK.rows) indexKey = prefixPattern;
        }
      }
      matches ??= await countedMessageMatches(knex, companyId, pattern, indexKey, probe + 1);
      strategy = matches > probe ? 'probe' : matches > gather ? 'gather' : 'index';
    }
    if (!known || known.until <= Date.now()) {
      if (strategies.size >= STRATEGY_CACHE_SIZE) strategies.clear();
      strategies.set(cacheKey, { messages: strategy, indexKey, source, until: Date.now() + STRATEGY_CACHE_MS });
    }
    messages = strategy !== 'probe' ? strategy : hideDeleted || text.includes(DOC_SEPARATOR) ? 'probe-messages' : 'probe';
  }
  return {
    text,
    pattern,
    numberPattern: phoneLike ? containsPattern(digits) : null,
    ticketId: /^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null,
    indexKey,
    messages,
    source,
  };
}

/** What a list statement is built from. */
interface ListQuery {
  params: Params;
  /** The placeholder of the company id. */
  company: string;
  viewer: Viewer;
  filters: TicketListFilters;
  hideDeleted: boolean;
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
function searchSql(query: ListQuery, plan: SearchPlan, joinGathered = false): SearchSql {
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

/**
 * Who the list covers (docs/product/roles-and-permissions.md#roles-in-the-inbox): a tab (status given) shows the viewer's own tickets and the unassigned
 * ones of their queues, or every ticket with showAll for admins and allUserChat users (showAll is ignored for
 * others). The search view (no status) covers every ticket for an admin and, for a profile user, their own
 * lists — allUserChat and showAll or not: a profile user's search view never shows all tickets.
 */
function listIsNarrowed(viewer: Viewer, filters: TicketListFilters): boolean {
  if (!filters.status) return viewer.profile !== 'admin';
  return !(filters.showAll === true && seesEverything(viewer));
}

/** One disjoint part of a viewer's lists, as a condition on `tickets as t`. */
interface ListBranch {
  sql: string;
  /**
   * For the page, the same part read one queue at a time (`vq.id`, each queue's range of the index is in
   * list order); the generic plan would otherwise walk every ticket of the status in order.
   */
  perQueue?: { sql: string; queueIds: string };
}

/**
 * `viewersListsSql` as disjoint parts — their own tickets; the unassigned ones of their queues; the
 * unassigned queue-less ones (allTicket, admins) — whose union is the same set. Each part is one range
 * of an index in list order (tickets_company_user_status, tickets_unassigned_queue, both covering what
 * the tab filters read), so a tab's page is a merge of a few index-only scans that stops with the page,
 * and its count is a sum of index-only counts; one OR of the three would be a bitmap scan of every row of
 * the list, read twice (count and page). Queue ids are one array parameter: the text doesn't vary.
 */
function listBranches(query: ListQuery): ListBranch[] {
  const { viewer, params } = query;
  const noGroups = !viewer.allowGroup && viewer.profile !== 'admin' ? ' AND NOT t.is_group' : '';
  const branches: ListBranch[] = [{ sql: `t.user_id = ${params.typed(viewer.id, 'int')}` }];
  if (viewer.queueIds.length > 0) {
    const queueIds = params.typed(viewer.queueIds, 'int[]');
    branches.push({
      sql: `t.user_id IS NULL AND t.queue_id = ANY(${queueIds})${noGroups}`,
      perQueue: { sql: `t.user_id IS NULL AND t.queue_id = vq.id${noGroups}`, queueIds },
    });
  }
  if (viewer.allTicket === 'enable' || viewer.profile === 'admin') {
    branches.push({ sql: `t.user_id IS NULL AND t.queue_id IS NULL${noGroups}` });
  }
  return branches;
}

/**
 * The filters of `GET /tickets` as a condition on `tickets t` (no order): every filter of the list, the
 * viewer's lists (or `branch`, a part of them) and the search (`search`, a condition from `searchSql`).
 */
function filterSql(query: ListQuery, branch: string | null, search: string | null): string {
  const { params, company, viewer, filters } = query;
  const where = [`t.company_id = ${company}`];
  // statuses are schema-checked literals: written into the SQL, each status gets its own plan
  if (filters.status) where.push(`t.status = ${statusLiteral(filters.status)}`);
  else if (filters.statusFilter && filters.statusFilter.length > 0) {
    where.push(`t.status IN (${[...new Set(filters.statusFilter)].map(statusLiteral).join(', ')})`);
  }
  // a branch of the viewer's lists replaces the visibility condition it is a part of
  if (branch !== null) where.push(branch);
  else if (listIsNarrowed(viewer, filters)) {
    // in a search, behind subqueries: the plan's estimates don't depend on the viewer (see `searchSql`)
    const param =
      search === null
        ? (value: unknown) => params.add(value)
        : (value: unknown) => `(SELECT ${params.add(value)}::${Array.isArray(value) ? 'int[]' : 'int'})`;
    where.push(viewersListsSql(viewer, 't', param));
  }
  // id lists as one array parameter: the statement's text doesn't change with their length
  if (filters.queueIds && filters.queueIds.length > 0) where.push(`t.queue_id = ANY(${params.typed(filters.queueIds, 'int[]')})`);
  if (filters.users && filters.users.length > 0 && viewer.profile === 'admin') {
    where.push(`t.user_id = ANY(${params.typed(filters.users, 'int[]')})`);
  }
  if (filters.whatsapps && filters.whatsapps.length > 0) {
    where.push(`t.whatsapp_id = ANY(${params.typed(filters.whatsapps, 'int[]')})`);
  }
  if (filters.withUnreadMessages) where.push('t.unread_messages > 0');
  if (filters.tags && filters.tags.length > 0) {
    const tags = params.typed(filters.tags, 'int[]');
    where.push(`(t.id IN (SELECT tt.ticket_id FROM ticket_tags tt WHERE tt.company_id = ${company} AND tt.tag_id = ANY(${tags}))
      OR t.contact_id IN (SELECT ct.contact_id FROM contact_tags ct WHERE ct.company_id = ${company} AND ct.tag_id = ANY(${tags})))`);
  }
  if (filters.date) {
    const [start, end] = dayRange(filters.date);
    where.push(`t.created_at >= ${params.typed(start, 'timestamptz')} AND t.created_at < ${params.typed(end, 'timestamptz')}`);
  }
  if (filters.updatedAt) {
    const [start, end] = dayRange(filters.updatedAt);
    where.push(`t.updated_at >= ${params.typed(start, 'timestamptz')} AND t.updated_at < ${params.typed(end, 'timestamptz')}`);
  }
  if (search !== null) where.push(search);
  return where.join(' AND ');
}

/**
 * The page's rows: `ctes` first, then `ids` (the page's ids and `updated_at` in list order, one more than a
 * page); each ticket's `TICKET_RENDER_COLUMNS` in list order and, last, `count` (an SQL expression,
 * computed once). Past the last page, one row of nulls carries the count.
 */
function pageRowsSql(ctes: string[], ids: string, count: string, orderBy: string): string {
  return `WITH ${[...ctes, `ids AS (${ids})`].join(',\n')}
    SELECT ${TICKET_RENDER_COLUMNS}, k.total
    FROM (SELECT (${count}) AS total) k
    LEFT JOIN (ids JOIN tickets t ON t.id = ids.id ${TICKET_ROW_JOINS}) ON true
    ${orderBy}`;
}

/**
 * `GET /tickets`: one page (TICKETS_PAGE_SIZE) of the filtered list, newest first unless `ASC`, with the count of the
 * whole list — for a text search, up to SEARCH_COUNT_LIMIT — as the JSON text of the answer, built by
 * Postgres in one statement (the page's tickets in the API shape; `mask` hides numbers). The SQL is written
 * as text, one prepared statement per shape of the filters (the values are parameters).
 */
export async function listTickets(
  knex: Knex,
  companyId: number,
  viewer: Viewer,
  filters: TicketListFilters,
  options: { settings: Record<string, string>; mask: boolean },
): Promise<TicketListJson> {
  const pageNumber = filters.pageNumber ?? 1;
  const offset = (pageNumber - 1) * TICKETS_PAGE_SIZE;
  const order = filters.sortTickets === 'ASC' ? 'ASC' : 'DESC';
  const orderBy = `ORDER BY t.updated_at ${order}, t.id ${order}`;
  const text = filters.searchParam?.replaceAll('\u0000', '').trim();
  const plan = text ? await planSearch(knex, companyId, text, filters.searchOnMessages === true, options.settings) : null;
  // a tab's values are hidden from the planner (see Params); a search hides what it must itself (searchSql)
  const params = new Params(plan === null);
  const query: ListQuery = {
    params,
    company: params.typed(companyId, 'int'),
    viewer,
    filters,
    hideDeleted: options.settings.enableLGPD === 'enabled' && options.settings.lgpdDeleteMessage === 'enabled',
  };
  // one more than a page tells whether another page follows
  const pageSize = TICKETS_PAGE_SIZE + 1;
  let sql: string;

  if (!plan) {
    // a tab: the page's ids merged from the parts of the viewer's lists, the count a sum of the parts' counts
    const branches = listIsNarrowed(viewer, filters) ? listBranches(query) : [null];
    const count = branches
      .map((branch) => `(SELECT count(*) FROM tickets t WHERE ${filterSql(query, branch?.sql ?? null, null)})`)
      .join(' + ');
    const limit = params.typed(pageSize, 'int');
    const skip = params.typed(offset, 'int');
    let ids: string;
    if (branches.length === 1) {
      ids = `SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, branches[0]?.sql ?? null, null)} ${orderBy} LIMIT ${limit} OFFSET ${skip}`;
    } else {
      // each part's first rows in list order (enough for this page), merged; the limits are parameters, so
      // every page shares the statement
      const headLimit = params.typed(offset + pageSize, 'int');
      const heads = branches.map((branch) => {
        const part = branch as ListBranch;
        if (!part.perQueue) {
          return `(SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, part.sql, null)} ${orderBy} LIMIT ${headLimit})`;
        }
        return `(SELECT h.id, h.updated_at FROM unnest(${part.perQueue.queueIds}) vq(id) CROSS JOIN LATERAL
          (SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, part.perQueue.sql, null)} ${orderBy} LIMIT ${headLimit}) h)`;
      });
      ids = `SELECT t.id, t.updated_at FROM (${heads.join(' UNION ALL ')}) t ${orderBy} LIMIT ${limit} OFFSET ${skip}`;
    }
    sql = pageRowsSql([], ids, count, orderBy);
  } else if (plan.messages === 'gather' || plan.messages === 'probe' || plan.messages === 'probe-messages') {
    // a common text: the visible tickets walked in list order, probed until the count's cap (or the page,
    // past it) is full — one pass for both
    const parts = walkParts(query);
    const search = searchSql(query, plan, parts.length > 1);
    // a literal: the plan depends on it (a walk for a few rows), and it only changes past the second page
    const cap = Math.max(SEARCH_COUNT_LIMIT, offset + pageSize);
    const head = (part: WalkPart, condition: string | null, limit: number) =>
      part.ranges === null
        ? `(SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, part.sql, condition)} ${orderBy} LIMIT ${limit})`
        : `(SELECT h.id, h.updated_at FROM ${part.ranges} CROSS JOIN LATERAL
            (SELECT t.id, t.updated_at FROM tickets t WHERE t.status = s.status AND ${filterSql(query, part.sql, condition)}
             ${orderBy} LIMIT ${limit}) h)`;
    let top: string[];
    if (parts.length === 1) {
      top = [
        `top AS (SELECT t.id, t.updated_at FROM ${head(parts[0] as WalkPart, search.condition, cap)} t ${orderBy} LIMIT ${cap})`,
      ];
    } else if (plan.messages === 'gather') {
      // A profile user's lists checked against the gathered tickets: each part of them read whole, on one
      // index range (their own tickets) or one per queue, and joined to the gathered ids' hash — an index
      // entry a ticket, where a walk in list order, status by status, costs several times more per ticket
      // and stops early only for texts the gathering is not chosen for.
      const whole = parts.map((part) =>
        part.queues === null
          ? `(SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, part.sql, search.condition)})`
          : `(SELECT h.id, h.updated_at FROM unnest((SELECT ${part.queues})) vq(id) CROSS JOIN LATERAL
              (SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, part.sql, search.condition)}) h)`,
      );
      top = [`top AS (SELECT t.id, t.updated_at FROM (${whole.join(' UNION ALL ')}) t ${orderBy} LIMIT ${cap})`];
    } else {
      // Several parts (a profile user's lists, per status): each part can only stop at its own cap, and
      // sparse parts (a queue's few unassigned tickets) would be probed to their end. So the newest
      // SEARCH_TUNING.recentWindow visible tickets are merged first without probing (index-only) and probed in list
      // order, which stops at the cap; only when they hold fewer matches are the older ones walked part by
      // part, from where the window ended.
      const window = SEARCH_TUNING.recentWindow;
      const after = order === 'DESC' ? '<' : '>';
      const older = `(t.updated_at, t.id) ${after} (SELECT r.updated_at, r.id FROM recent r ORDER BY r.updated_at ${order === 'DESC' ? 'ASC' : 'DESC'}, r.id ${order === 'DESC' ? 'ASC' : 'DESC'} LIMIT 1)`;
      top = [
        `recent AS MATERIALIZED (SELECT t.id, t.updated_at FROM (${parts.map((part) => head(part, null, window)).join(' UNION ALL ')}) t ${orderBy} LIMIT ${window})`,
        `hits AS (SELECT t.id, t.updated_at FROM (SELECT * FROM recent t ${orderBy} OFFSET 0) t WHERE ${search.condition} LIMIT ${cap})`,
        `rest AS (SELECT t.id, t.updated_at FROM (${parts.map((part) => head(part, `${search.condition} AND ${older}`, cap)).join(' UNION ALL ')}) t
          WHERE (SELECT count(*) FROM hits) < ${cap} AND (SELECT count(*) FROM recent) = ${window})`,
        `top AS (SELECT t.id, t.updated_at FROM (SELECT * FROM hits UNION ALL SELECT * FROM rest) t ${orderBy} LIMIT ${cap})`,
      ];
    }
    sql = pageRowsSql(
      [...search.ctes, ...top],
      `SELECT t.id, t.updated_at FROM top t ${orderBy} LIMIT ${pageSize} OFFSET ${offset}`,
      `SELECT least(count(*), ${SEARCH_COUNT_LIMIT}) FROM top`,
      orderBy,
    );
  } else {
    // a rare text (or none in messages): the matching tickets gathered once (a few index scans), then
    // counted and paged
    const search = searchSql(query, plan);
    const matched = `SELECT t.id, t.updated_at FROM tickets t WHERE ${filterSql(query, null, search.condition)}`;
    sql = pageRowsSql(
      [...search.ctes, `matched AS MATERIALIZED (${matched})`],
      `SELECT t.id, t.updated_at FROM matched t ${orderBy} LIMIT ${pageSize} OFFSET ${offset}`,
      `SELECT count(*) FROM (SELECT 1 FROM matched LIMIT ${SEARCH_COUNT_LIMIT}) capped`,
      orderBy,
    );
  }
  // a tab waits to leave with the tabs read meanwhile (see tabBatcher)
  const batcher = plan === null ? tabBatcher(knex, sql) : null;
  const rows = batcher ? await batcher.submit(params.values) : await rawRows(knex, statementOf(sql), params.values);
  const count = Number(rows[0]?.[TICKET_RENDER_WIDTH] ?? 0);
  // past the last page the one row carries only the count
  const page = rows[0]?.[0] === null ? [] : rows;
  const tickets = page.slice(0, TICKETS_PAGE_SIZE).map((row) => renderTicket(row, 0, options.mask));
  return `{"tickets":[${tickets.join(',')}],"hasMore":${page.length > TICKETS_PAGE_SIZE},"count":${count}}` as TicketListJson;
}

type Row = Array<string | null>;

/**
 * A tab's statement for several viewers at once: its text, each of its values (all written by
 * `Params.typed`, `(SELECT $n::type)`) read instead from the viewer's row of a JSON array, through a
 * LATERAL join; rows led by the viewer's place in the array, each viewer's in list order.
 */
function tabBatchSql(sql: string): string {
  const value = (n: string) => `u.v->${Number(n) - 1}`;
  const text = sql.replace(/\$(\d+)::(int\[\]|int|timestamptz)/g, (_match, n: string, type: string) =>
    type === 'int[]' ? `ARRAY(SELECT jsonb_array_elements_text(${value(n)})::int)` : `(${value(n)} #>> '{}')::${type}`,
  );
  return `SELECT u.i, p.* FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS u(v, i) CROSS JOIN LATERAL (${text}) p`;
}

/**
 * Tabs read while others are in flight leave together, one statement per shape of the filters (agents'
 * open tabs share theirs): as for message pages (message-serializer.ts), a tab's page costs Postgres more
 * per statement than per row.
 */
const tabBatchers = perInstance((_knex: Knex) => new Map<string, StatementBatcher<unknown[], Row[]>>());
const TAB_SHAPES = 200;

/** How the tab reads of an app went: statements run, tabs they read, the largest batch. */
export function tabReadStats(knex: Knex): BatcherStats {
  return StatementBatcher.totals(tabBatchers(knex).values());
}

/** The batcher of a tab's statement; null when a value of it isn't one `tabBatchSql` can read (never, today). */
function tabBatcher(knex: Knex, sql: string): StatementBatcher<unknown[], Row[]> | null {
  const byText = tabBatchers(knex);
  let batcher = byText.get(sql);
  if (!batcher) {
    const single = statementOf(sql);
    const batchSql = tabBatchSql(sql);
    // every value must have become the viewer's row's (only $1, the array, is left)
    if (/\$(?:[2-9]|\d\d)/.test(batchSql)) return null;
    const batch = statementOf(batchSql);
    batcher = new StatementBatcher<unknown[], Row[]>({
      runOne: (values) => rawRows(knex, single, values),
      runMany: async (valueLists) => {
        const rows = await rawRows(knex, batch, [JSON.stringify(valueLists)]);
        const byPlace: Row[][] = valueLists.map(() => []);
        for (const row of rows) byPlace[Number(row[0]) - 1]?.push(row.slice(1));
        return byPlace;
      },
      conflicts: () => false,
      maxInFlight: 1,
      maxBatch: 32,
    });
    // a few shapes are common (the tabs); the rest come and go
    if (byText.size >= TAB_SHAPES) byText.clear();
    byText.set(sql, batcher);
  }
  return batcher;
}

/**
 * One part of the walk of a search: the ranges it is read in (`s.status`, maybe `vq.id`; none: the company's
 * tickets in list order) and its condition.
 */
interface WalkPart {
  ranges: string | null;
  sql: string | null;
  /** The queues (`vq.id` in `sql`) of a part read one queue at a time; null: one range. */
  queues: string | null;
}

/**
 * The parts of a search's walk, each read in list order on an index range, so that each stops with the
 * cap: the company's tickets for a viewer who sees them all (tickets_company_updated; per status with a
 * statusFilter, tickets_company_status_updated); else the viewer's lists per status — their own tickets
 * (tickets_company_user_status) and the unassigned ones per queue (tickets_unassigned_queue) or without one.
 */
function walkParts(query: ListQuery): WalkPart[] {
  const { viewer, filters } = query;
  const narrowed = listIsNarrowed(viewer, filters);
  const statusFilter = filters.statusFilter && filters.statusFilter.length > 0 ? [...new Set(filters.statusFilter)] : null;
  if (!narrowed && statusFilter === null) return [{ ranges: null, sql: null, queues: null }];
  // the statuses as a literal and the queues behind a subquery: the planner's estimates (and so the choice
  // of one generic plan over a plan per request) never depend on the values
  const byStatus = `unnest('{${(statusFilter ?? TICKET_STATUSES).join(',')}}'::text[]) s(status)`;
  if (!narrowed) return [{ ranges: byStatus, sql: null, queues: null }];
  return listBranches(query).map((branch) =>
    branch.perQueue
      ? {
          ranges: `unnest((SELECT ${branch.perQueue.queueIds})) vq(id) CROSS JOIN ${byStatus}`,
          sql: branch.perQueue.sql,
          queues: branch.perQueue.queueIds,
        }
      : { ranges: byStatus, sql: branch.sql, queues: null },
  );
}
