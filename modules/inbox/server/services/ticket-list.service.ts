import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { TICKET_STATUSES, TICKETS_PAGE_SIZE, type Ticket, type TicketStatus } from '../../shared/types';
import { camelize } from './camel-keys';
import { loadTickets, type TicketRow, ticketFromRow, ticketRowsQuery } from './ticket-serializer';
import { seesEverything, type Viewer, whereInViewersLists } from './visibility';

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

/** A status as an SQL literal (only the six statuses of TICKET_STATUSES pass). */
function statusLiteral(status: TicketStatus): string {
  if (!(TICKET_STATUSES as readonly string[]).includes(status)) throw new Error(`not a ticket status: ${status}`);
  return `'${status}'`;
}

/** The name of a prepared statement for an SQL text (the same text, the same name). */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = `inbox_tickets_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}
/** Hashed once per SQL text: a list request would otherwise hash its statement every time. */
const statementNames = new Map<string, string>();

/** `[start, end)` of a YYYY-MM-DD calendar day in the server's time zone. */
export function dayRange(day: string): [Date, Date] {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return [new Date(year, month - 1, date), new Date(year, month - 1, date + 1)];
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** How a text search is run (see `planSearch`). */
interface SearchPlan {
  pattern: string;
  /** The number's digits as a pattern, when the text looks like a phone number. */
  numberPattern: string | null;
  /** The text as a ticket id, when it is one. */
  ticketId: number | null;
  /**
   * Message contents: not searched; searched through the trigram index (`index`: a rare text, the ids of
   * the tickets whose messages match are gathered once); or probed ticket by ticket in list order
   * (`probe`: a common text, the first tickets of the list almost all match, so reading their own
   * messages is far cheaper than gathering every matching message of the company).
   */
  messages: 'none' | 'index' | 'probe';
  hideDeleted: boolean;
}

/**
 * Above this many matching messages (counted, see `countedMessageMatches`), message contents are probed
 * per ticket. Measured on the bench data set: 1,644 matches take 10 ms through the index and 65 ms probed;
 * 10,442 take 45 ms through the index and 12 ms probed.
 */
const PROBE_ABOVE_MESSAGES = 4_000;
/** A text search counts up to this many tickets (docs/inbox-api.md): exact below it. */
export const SEARCH_COUNT_LIMIT = 100;

/** How a recent text was searched, per company and text: a stale choice only costs speed. */
const strategies = new Map<string, { messages: 'index' | 'probe'; until: number }>();
const STRATEGY_CACHE_SIZE = 1_000;
const STRATEGY_CACHE_MS = 60_000;

/**
 * How many of the company's messages match a pattern, counted for real up to `limit` (the planner's
 * estimate for `ILIKE '%word%'` is often off by several times, and the choice turns on it).
 */
async function countedMessageMatches(knex: Knex, companyId: number, pattern: string, limit: number): Promise<number> {
  const result = (await knex.raw(
    'SELECT count(*)::integer AS matches FROM (SELECT 1 FROM messages m WHERE m.company_id = ? AND m.body ILIKE ? LIMIT ?) s',
    [companyId, pattern, limit],
  )) as { rows: Array<{ matches: number }> };
  return Number(result.rows[0]?.matches ?? 0);
}

/** Decides how a search text is matched: contact name, number digits, ticket id, message contents. */
async function planSearch(
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
  if (onMessages) {
    const key = `${companyId}:${pattern}`;
    const known = strategies.get(key);
    if (known && known.until > Date.now()) messages = known.messages;
    else {
      const matches = await countedMessageMatches(knex, companyId, pattern, PROBE_ABOVE_MESSAGES + 1);
      messages = matches > PROBE_ABOVE_MESSAGES ? 'probe' : 'index';
      if (strategies.size >= STRATEGY_CACHE_SIZE) strategies.clear();
      strategies.set(key, { messages, until: Date.now() + STRATEGY_CACHE_MS });
    }
  }
  return {
    pattern,
    numberPattern: phoneLike ? containsPattern(digits) : null,
    ticketId: /^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null,
    messages,
    hideDeleted: settings.enableLGPD === 'enabled' && settings.lgpdDeleteMessage === 'enabled',
  };
}

/**
 * The search of the list: contact name (trigram index), the number's digits when the text looks like a
 * phone number (trigram index), the ticket id when it is one, and message contents with
 * `searchOnMessages`. For a rare text, one `IN (… UNION ALL …)` of ticket ids: each part runs once on its
 * index and the result is joined. For a common one, the messages of each ticket are probed in list order
 * (index on ticket_id), which stops with the page.
 */
function whereSearch(query: Knex.QueryBuilder, companyId: number, plan: SearchPlan): void {
  const contactMatch = `SELECT c.id FROM contacts c WHERE c.company_id = ? AND (c.name ILIKE ?${
    plan.numberPattern === null ? '' : ' OR c.number LIKE ?'
  })`;
  const contactBindings: Array<string | number> = [companyId, plan.pattern];
  if (plan.numberPattern !== null) contactBindings.push(plan.numberPattern);
  const messageMatch = `m.company_id = ? AND m.body ILIKE ?${plan.hideDeleted ? ' AND NOT m.is_deleted' : ''}`;

  if (plan.messages === 'probe') {
    const parts = [`t.contact_id IN (${contactMatch})`];
    const bindings: Array<string | number> = [...contactBindings];
    if (plan.ticketId !== null) {
      parts.push('t.id = ?');
      bindings.push(plan.ticketId);
    }
    // OFFSET 0 keeps the EXISTS a probe of this ticket's messages (never turned into a company-wide hash)
    parts.push(`EXISTS (SELECT 1 FROM messages m WHERE m.ticket_id = t.id AND ${messageMatch} OFFSET 0)`);
    bindings.push(companyId, plan.pattern);
    query.whereRaw(`(${parts.join(' OR ')})`, bindings);
    return;
  }
  const parts = [`SELECT tc.id FROM tickets tc WHERE tc.company_id = ? AND tc.contact_id IN (${contactMatch})`];
  const bindings: Array<string | number> = [companyId, ...contactBindings];
  if (plan.ticketId !== null) {
    parts.push('SELECT ?::integer');
    bindings.push(plan.ticketId);
  }
  if (plan.messages === 'index') {
    parts.push(`SELECT m.ticket_id FROM messages m WHERE ${messageMatch}`);
    bindings.push(companyId, plan.pattern);
  }
  query.whereRaw(`t.id IN (${parts.join(' UNION ALL ')})`, bindings);
}

/**
 * Who the list covers (1-core §6): a tab (status given) shows the viewer's own tickets and the unassigned
 * ones of their queues, or every ticket with showAll for admins and allUserChat users (showAll is ignored for
 * others). The search view (no status) covers every ticket for an admin; for a profile user their own
 * lists, and everything only with showAll and allUserChat.
 */
function whereListVisibility(query: Knex.QueryBuilder, viewer: Viewer, filters: TicketListFilters): void {
  if (!listIsNarrowed(viewer, filters)) return;
  whereInViewersLists(query, viewer, 't');
}

/** Whether the list is narrowed to the viewer's lists (see `whereListVisibility`). */
function listIsNarrowed(viewer: Viewer, filters: TicketListFilters): boolean {
  if (filters.showAll === true && seesEverything(viewer)) return false;
  return !(!filters.status && viewer.profile === 'admin');
}

/** One disjoint part of a viewer's lists, as a condition on `tickets as t`. */
interface ListBranch {
  sql: string;
  bindings: Knex.RawBinding[];
  /**
   * For the page, the same part read one queue at a time (`vq.id`, each queue's range of the index is in
   * list order); the generic plan would otherwise walk every ticket of the status in order.
   */
  perQueue?: { sql: string; queueIds: number[] };
}

/**
 * `whereInViewersLists` as disjoint parts — their own tickets; the unassigned ones of their queues; the
 * unassigned queue-less ones (allTicket, admins) — whose union is the same set. Each part is one range
 * of an index in list order (tickets_company_user_status, tickets_unassigned_queue, both covering what
 * the tab filters read), so a tab's page is a merge of a few index-only scans that stops with the page,
 * and its count is a sum of index-only counts; one OR of the three would be a bitmap scan of every row of
 * the list, read twice (count and page). Queue ids are one array parameter: the text doesn't vary.
 */
function listBranches(viewer: Viewer): ListBranch[] {
  const noGroups = !viewer.allowGroup && viewer.profile !== 'admin' ? ' AND NOT t.is_group' : '';
  const branches: ListBranch[] = [{ sql: 't.user_id = ?', bindings: [viewer.id] }];
  if (viewer.queueIds.length > 0) {
    branches.push({
      sql: `t.user_id IS NULL AND t.queue_id = ANY(?::int[])${noGroups}`,
      bindings: [viewer.queueIds],
      perQueue: { sql: `t.user_id IS NULL AND t.queue_id = vq.id${noGroups}`, queueIds: viewer.queueIds },
    });
  }
  if (viewer.allTicket === 'enable' || viewer.profile === 'admin') {
    branches.push({ sql: `t.user_id IS NULL AND t.queue_id IS NULL${noGroups}`, bindings: [] });
  }
  return branches;
}

/** The filtering query of the list (no order, no columns): every filter of `GET /tickets`. */
function filteredTickets(
  knex: Knex,
  companyId: number,
  viewer: Viewer,
  filters: TicketListFilters,
  search: SearchPlan | null,
  branch?: ListBranch,
): Knex.QueryBuilder {
  const query = knex('tickets as t').where('t.companyId', companyId);
  // statuses are schema-checked literals: written into the SQL, each status gets its own plan
  if (filters.status) query.whereRaw(`t.status = ${statusLiteral(filters.status)}`);
  else if (filters.statusFilter && filters.statusFilter.length > 0) {
    query.whereRaw(`t.status IN (${[...new Set(filters.statusFilter)].map(statusLiteral).join(', ')})`);
  }
  // a branch of the viewer's lists replaces the visibility condition it is a part of
  if (branch) query.whereRaw(branch.sql, branch.bindings);
  else whereListVisibility(query, viewer, filters);

  // id lists as one array parameter: the statement's text doesn't change with their length
  if (filters.queueIds && filters.queueIds.length > 0) query.whereRaw('t.queue_id = ANY(?)', [filters.queueIds]);
  if (filters.users && filters.users.length > 0 && viewer.profile === 'admin') {
    query.whereRaw('t.user_id = ANY(?)', [filters.users]);
  }
  if (filters.whatsapps && filters.whatsapps.length > 0) query.whereRaw('t.whatsapp_id = ANY(?)', [filters.whatsapps]);
  if (filters.withUnreadMessages) query.where('t.unreadMessages', '>', 0);
  if (filters.tags && filters.tags.length > 0) {
    query.whereRaw(
      `(t.id IN (SELECT tt.ticket_id FROM ticket_tags tt WHERE tt.company_id = ? AND tt.tag_id = ANY(?))
        OR t.contact_id IN (SELECT ct.contact_id FROM contact_tags ct WHERE ct.company_id = ? AND ct.tag_id = ANY(?)))`,
      [companyId, filters.tags, companyId, filters.tags],
    );
  }
  if (filters.date) {
    const [start, end] = dayRange(filters.date);
    query.where('t.createdAt', '>=', start).where('t.createdAt', '<', end);
  }
  if (filters.updatedAt) {
    const [start, end] = dayRange(filters.updatedAt);
    query.where('t.updatedAt', '>=', start).where('t.updatedAt', '<', end);
  }
  if (search) whereSearch(query, companyId, search);
  return query;
}

/**
 * `GET /tickets`: one page (40) of the filtered list, newest first unless `ASC`, with the count of the
 * whole list — for a text search, up to SEARCH_COUNT_LIMIT. The page's ids are chosen with the filters on
 * the tickets indexes (company, status, updated_at) and the page is built in the API shape by the
 * serializer's select.
 */
export async function listTickets(
  knex: Knex,
  companyId: number,
  viewer: Viewer,
  filters: TicketListFilters,
  options: { settings: Record<string, string>; mask: boolean },
): Promise<TicketListPage> {
  const pageNumber = filters.pageNumber ?? 1;
  const offset = (pageNumber - 1) * TICKETS_PAGE_SIZE;
  const direction = filters.sortTickets === 'ASC' ? 'asc' : 'desc';
  const text = filters.searchParam?.replaceAll('\u0000', '').trim();
  const search = text ? await planSearch(knex, companyId, text, filters.searchOnMessages === true, options.settings) : null;
  const order = [
    { column: 't.updatedAt', order: direction },
    { column: 't.id', order: direction },
  ];
  // one more than a page tells whether another page follows (a search's count may stop short of it)
  const pageSize = TICKETS_PAGE_SIZE + 1;
  const pageIds = (from: Knex.QueryBuilder) => from.select('t.id').orderBy(order).limit(pageSize).offset(offset);

  if (!search) {
    // a tab: one statement, prepared once per connection with its plan reused (planning is much of its
    // cost) — the page's rows in the API shape, each carrying the count
    const branches = listIsNarrowed(viewer, filters) ? listBranches(viewer) : [undefined];
    const parts = branches.map((branch) => filteredTickets(knex, companyId, viewer, filters, null, branch));
    const count = knex.raw(
      parts.map(() => '?').join(' + '),
      parts.map((part) => part.clone().count('*')),
    );
    let page: Knex.QueryBuilder;
    if (parts.length === 1) page = pageIds(parts[0] as Knex.QueryBuilder);
    else {
      // each part's first rows in list order (enough for this page), merged; LIMIT is a parameter, so
      // every page shares the statement
      const head = (branch: ListBranch) =>
        filteredTickets(knex, companyId, viewer, filters, null, branch)
          .select('t.id', 't.updatedAt')
          .orderBy(order)
          .limit(offset + pageSize);
      const heads = branches.map((branch) =>
        branch?.perQueue
          ? knex.raw('(SELECT h.id, h.updated_at FROM unnest(?::int[]) vq(id) CROSS JOIN LATERAL ? h)', [
              branch.perQueue.queueIds,
              head({ sql: branch.perQueue.sql, bindings: [] }),
            ])
          : head(branch as ListBranch),
      );
      page = pageIds(knex.from(knex.raw(`(${heads.map(() => '?').join(' UNION ALL ')}) as t`, heads)));
    }
    const statement = ticketRowsQuery(knex, companyId)
      .whereIn('t.id', page)
      .select(knex.raw('(?) as list_total', [count]))
      .orderBy(order);
    const { sql, bindings } = statement.toSQL();
    const result = (await knex.raw(sql, bindings as readonly Knex.RawBinding[]).options({ name: statementName(sql) })) as {
      rows: Array<Record<string, unknown>>;
    };
    const rows = result.rows.map((row) => camelize<Record<string, unknown>>(row)) as unknown as Array<
      TicketRow & { listTotal: number | string }
    >;
    let total = rows[0] ? Number(rows[0].listTotal) : 0;
    if (!rows[0] && offset > 0) {
      total = Number(
        ((await knex.select(knex.raw('(?) as count', [count]))) as Array<{ count: number | string }>)[0]?.count ?? 0,
      );
    }
    const tickets = rows.slice(0, TICKETS_PAGE_SIZE).map((row) => ticketFromRow(row, options.mask));
    return { tickets, hasMore: rows.length > TICKETS_PAGE_SIZE, count: total };
  }

  const filtered = filteredTickets(knex, companyId, viewer, filters, search);
  // a search: its plan depends on the text, so the ids and the count are planned each time (a small
  // statement); the page is then loaded by the serializer's prepared statement
  let statement: Knex.QueryBuilder;
  if (search.messages === 'probe') {
    const count = knex.count('*').from(filtered.clone().select(knex.raw('1')).limit(SEARCH_COUNT_LIMIT).as('capped'));
    statement = knex.select(knex.raw('(?) as total', [count]), knex.raw('array(?) as ids', [pageIds(filtered.clone())]));
  } else {
    // the matching tickets are gathered once (a few index scans), then counted and paged
    const count = knex.count('*').from(knex('matched').select(knex.raw('1')).limit(SEARCH_COUNT_LIMIT).as('capped'));
    statement = knex
      .withMaterialized('matched', filtered.clone().select('t.id', 't.updatedAt'))
      .select(knex.raw('(?) as total', [count]), knex.raw('array(?) as ids', [pageIds(knex('matched as t'))]));
  }
  const [row] = (await statement) as Array<{ total: number | string; ids: number[] }>;
  const ids = row?.ids ?? [];
  const tickets = await loadTickets(knex, companyId, ids.slice(0, TICKETS_PAGE_SIZE), options.mask);
  return { tickets, hasMore: ids.length > TICKETS_PAGE_SIZE, count: Number(row?.total ?? 0) };
}
