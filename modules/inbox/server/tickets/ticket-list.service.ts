import { type BatcherStats, perInstance, preparedStatementName, StatementBatcher } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { TICKET_STATUSES, TICKETS_PAGE_SIZE, type Ticket, type TicketStatus } from '../../shared/types';
import { type JsonText, renderTicket, TICKET_RENDER_COLUMNS, TICKET_RENDER_WIDTH } from '../json-sql';
import { rawRows, type Statement } from '../prepared';
import { planSearch, SEARCH_COUNT_LIMIT, SEARCH_TUNING } from '../search/search-plan';
import { searchSql } from '../search/search-sql';
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

/**
 * The bound values of one statement: `add` answers the placeholder (`$n`) of a value, `typed` the value as
 * SQL of a type. In an opaque statement `typed` hides the value from the planner behind a subquery: its
 * estimates, and so the costs it compares, are then the same for every value. Postgres plans a prepared
 * statement for its values five times, then keeps one generic plan unless plans for the values look
 * cheaper; a tab's statement is one of those (its own tickets' count, the queues' array size, the page's
 * limit), so it was planned anew at every request (~2.5 ms of Postgres each, a page's work four times over:
 * docs/benchmarks.md, "Inbox").
 */
export class Params {
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

/** What a list statement is built from. */
export interface ListQuery {
  params: Params;
  /** The placeholder of the company id. */
  company: string;
  viewer: Viewer;
  filters: TicketListFilters;
  hideDeleted: boolean;
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
 *
 * A tab's statement runs under row-level security for `companyId` (docs/architecture.md#tenancy,
 * "Row-level security"): beside its own company filters, the policies let it read that company's rows only.
 * `rowSecurity: false` runs it as the owner, as before: the bench's baseline. A search's statements run as
 * the owner: its text operators (trigram, full text) are not leakproof, so under the policies Postgres
 * would not use them as index conditions.
 */
export async function listTickets(
  knex: Knex,
  companyId: number,
  viewer: Viewer,
  filters: TicketListFilters,
  options: { settings: Record<string, string>; mask: boolean; rowSecurity?: boolean },
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
  const batcher = plan === null ? tabBatcher(knex, sql, options.rowSecurity === false ? null : companyId) : null;
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
 * Tabs read while others are in flight leave together, one statement per company and shape of the filters
 * (a company's agents' open tabs share theirs): as for message pages (message-serializer.ts), a tab's page
 * costs Postgres more per statement than per row. Per company: a statement runs under row-level security
 * for one company.
 */
const tabBatchers = perInstance((_knex: Knex) => new Map<string, StatementBatcher<unknown[], Row[]>>());
const TAB_SHAPES = 1_000;

/** How the tab reads of an app went: statements run, tabs they read, the largest batch. */
export function tabReadStats(knex: Knex): BatcherStats {
  return StatementBatcher.totals(tabBatchers(knex).values());
}

/**
 * The batcher of a tab's statement for `tenant`, the company whose rows alone it reads (null: as the owner);
 * null when a value of it isn't one `tabBatchSql` can read (never, today).
 */
function tabBatcher(knex: Knex, sql: string, tenant: number | null): StatementBatcher<unknown[], Row[]> | null {
  const byText = tabBatchers(knex);
  const key = `${tenant ?? 'owner'}\u0000${sql}`;
  let batcher = byText.get(key);
  if (!batcher) {
    const single = statementOf(sql);
    const batchSql = tabBatchSql(sql);
    // every value must have become the viewer's row's (only $1, the array, is left)
    if (/\$(?:[2-9]|\d\d)/.test(batchSql)) return null;
    const batch = statementOf(batchSql);
    batcher = new StatementBatcher<unknown[], Row[]>({
      runOne: (values) => rawRows(knex, single, values, tenant ?? undefined),
      runMany: async (valueLists) => {
        const rows = await rawRows(knex, batch, [JSON.stringify(valueLists)], tenant ?? undefined);
        const byPlace: Row[][] = valueLists.map(() => []);
        for (const row of rows) byPlace[Number(row[0]) - 1]?.push(row.slice(1));
        return byPlace;
      },
      conflicts: () => false,
      maxInFlight: 1,
      maxBatch: 32,
    });
    // a few shapes of each company are common (the tabs); the rest come and go
    if (byText.size >= TAB_SHAPES) byText.clear();
    byText.set(key, batcher);
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
