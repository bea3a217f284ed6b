import { AppError } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { NPS_BANDS, type NpsBand, REPORT_SORTS, REPORT_STATUSES, type ReportSort, type ReportTicket } from '../../shared/types';
import type { DayRange } from './range';
import type { ViewerScope } from './scope';

/**
 * The ticket report (docs/product/administration.md#reports; docs/insights.md "Report"): read-only SQL over the inbox's
 * `tickets`, `contacts`, `users`, `queues`, `ticket_tags`, `contact_tags`, `ticket_ratings` (and the channels
 * plugin's `whatsapps`, when installed, for the connection's name), plus this module's cycles for the time in
 * attendance. Always within the viewer's company and scope.
 */

/** The report's filters, parsed. */
export interface ReportFilters {
  range: DayRange;
  searchParam?: string;
  contactId?: number;
  whatsappIds?: number[];
  userIds?: number[];
  queueIds?: number[];
  tagIds?: number[];
  statuses?: string[];
  onlyRated?: boolean;
  npsBands?: NpsBand[];
}

export interface ReportOrder {
  sortBy: ReportSort;
  sortOrder: 'asc' | 'desc';
}

/**
 * A list filter of the documented report call: a JSON array (`[1,2]`, `["open"]`) or a comma-separated list.
 * Anything else is ERR_INVALID_FILTER.
 */
export function parseIdList(value: string | undefined): number[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const items = parseList(value);
  const ids = items.map((item) => Number(item));
  if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) throw new AppError('ERR_INVALID_FILTER');
  return ids;
}

export function parseChoiceList<T extends string>(value: string | undefined, choices: readonly T[]): T[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const items = parseList(value).map((item) => String(item));
  if (items.some((item) => !choices.includes(item as T))) throw new AppError('ERR_INVALID_FILTER');
  return items as T[];
}

function parseList(value: string): unknown[] {
  const text = value.trim();
  if (text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AppError('ERR_INVALID_FILTER');
    }
    if (
      !Array.isArray(parsed) ||
      parsed.length > 500 ||
      parsed.some((item) => typeof item !== 'number' && typeof item !== 'string')
    ) {
      throw new AppError('ERR_INVALID_FILTER');
    }
    return parsed;
  }
  const items = text.split(',').map((item) => item.trim());
  if (items.length > 500 || items.some((item) => item === '')) throw new AppError('ERR_INVALID_FILTER');
  return items;
}

export const reportStatuses = (value: string | undefined) => parseChoiceList(value, REPORT_STATUSES);
export const reportNpsBands = (value: string | undefined) => parseChoiceList(value, NPS_BANDS);
export const isReportSort = (value: string): value is ReportSort => (REPORT_SORTS as readonly string[]).includes(value);

let connectionsTable: Promise<boolean> | null = null;
/** Whether the channels plugin's `whatsapps` table is there (read once per process). */
function hasConnections(knex: Knex): Promise<boolean> {
  connectionsTable ??= knex
    .raw("SELECT to_regclass('public.whatsapps') IS NOT NULL AS present")
    .then((result) => Boolean((result.rows as Array<{ present: boolean }>)[0]?.present));
  return connectionsTable;
}

/**
 * `column = :name` for one value, `column = ANY(:name::type[])` for several: Postgres 15 walks the
 * (company, queue, status, created) index in order — a page reads its 40 entries — only for plain equalities.
 */
function oneOrAny(
  parts: string[],
  bindings: Record<string, unknown>,
  column: string,
  name: string,
  type: 'int' | 'text',
  values: ReadonlyArray<number | string>,
): void {
  if (values.length === 1) {
    parts.push(`${column} = :${name}${type === 'int' ? '::int' : '::text'}`);
    bindings[name] = values[0];
  } else {
    parts.push(`${column} = ANY(:${name}::${type}[])`);
    bindings[name] = values;
  }
}

/** The WHERE of the report over `tickets t` (and `ticket_ratings r` when a rating filter needs it). */
function whereSql(scope: ViewerScope, filters: ReportFilters): { sql: string; bindings: Record<string, unknown> } {
  const parts = [
    't.company_id = :company',
    't.created_at >= (:from::date::timestamp AT TIME ZONE :zone)',
    't.created_at < ((:to::date + 1)::timestamp AT TIME ZONE :zone)',
  ];
  const bindings: Record<string, unknown> = {
    company: scope.companyId,
    from: filters.range.from,
    to: filters.range.to,
    zone: filters.range.timezone,
  };
  // a viewer without queues sees nothing (an empty list), not everything
  if (scope.queueIds) oneOrAny(parts, bindings, 't.queue_id', 'scopeQueues', 'int', scope.queueIds);
  if (filters.statuses?.length) oneOrAny(parts, bindings, 't.status', 'statuses', 'text', filters.statuses);
  if (filters.queueIds?.length) oneOrAny(parts, bindings, 't.queue_id', 'queueIds', 'int', filters.queueIds);
  if (filters.userIds?.length) oneOrAny(parts, bindings, 't.user_id', 'userIds', 'int', filters.userIds);
  if (filters.whatsappIds?.length) oneOrAny(parts, bindings, 't.whatsapp_id', 'whatsappIds', 'int', filters.whatsappIds);
  if (filters.contactId !== undefined) {
    parts.push('t.contact_id = :contactId');
    bindings.contactId = filters.contactId;
  }
  if (filters.tagIds?.length) {
    // the ticket's tags and its contact's, as the inbox shows them together
    parts.push('t.tag_ids && :tagIds::int[]');
    bindings.tagIds = filters.tagIds;
  }
  if (filters.searchParam?.trim()) {
    const text = filters.searchParam.trim();
    const asId = /^\d{1,9}$/.test(text) ? Number(text) : null;
    parts.push(`(EXISTS (SELECT 1 FROM contacts sc WHERE sc.id = t.contact_id AND sc.company_id = t.company_id
                 AND (sc.name ILIKE :search OR sc.number LIKE :search))${asId !== null ? ' OR t.id = :searchId' : ''})`);
    bindings.search = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    if (asId !== null) bindings.searchId = asId;
  }
  const bands = filters.npsBands ?? [];
  if (filters.onlyRated || bands.length > 0) {
    const ranges = bands.map((band) =>
      band === 'promoter' ? 'r.rate >= 9' : band === 'passive' ? 'r.rate BETWEEN 7 AND 8' : 'r.rate <= 6',
    );
    parts.push(
      `EXISTS (SELECT 1 FROM ticket_ratings r WHERE r.ticket_id = t.id${ranges.length ? ` AND (${ranges.join(' OR ')})` : ''})`,
    );
  }
  return { sql: parts.join(' AND '), bindings };
}

const ORDER_SQL: Record<ReportSort, string> = {
  id: 't.id',
  createdAt: 't.created_at',
  closedAt: 't.closed_at',
  status: 't.status',
  contactName: 'c.name',
  userName: 'u.name',
  queueName: 'q.name',
  nps: 'r.rate',
};

/**
 * The SELECT of report rows, with `extra` after the WHERE (order, limit). A page looks each row's time in
 * attendance up by ticket; the whole report (the export) sums every cycle of the company once and joins it.
 */
async function rowsSql(knex: Knex, where: string, extra: string, whole = false): Promise<string> {
  const connections = await hasConnections(knex);
  return `
    SELECT t.id, t.uuid, ${connections ? 'w.name' : 'NULL'} AS whatsapp_name, c.name AS contact_name, t.user_id, u.name AS user_name,
           q.name AS queue_name, t.status, t.last_message,
           to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
           to_char(t.closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS closed_at,
           ${
             whole
               ? 'st.support_time'
               : `(SELECT round(sum(extract(epoch FROM ic.resolved_at - ic.accepted_at)) / 60)::int FROM insight_cycles ic
            WHERE ic.ticket_id = t.id AND ic.accepted_at IS NOT NULL AND ic.resolved_at IS NOT NULL)`
           } AS support_time,
           r.rate AS nps
    FROM tickets t
    JOIN contacts c ON c.id = t.contact_id
    LEFT JOIN users u ON u.id = t.user_id
    LEFT JOIN queues q ON q.id = t.queue_id
    LEFT JOIN ticket_ratings r ON r.ticket_id = t.id
    ${connections ? 'LEFT JOIN whatsapps w ON w.id = t.whatsapp_id AND w.company_id = t.company_id' : ''}
    ${
      whole
        ? `LEFT JOIN (SELECT ic.ticket_id, round(sum(extract(epoch FROM ic.resolved_at - ic.accepted_at)) / 60)::int AS support_time
                      FROM insight_cycles ic WHERE ic.company_id = :company AND ic.accepted_at IS NOT NULL AND ic.resolved_at IS NOT NULL
                      GROUP BY ic.ticket_id) st ON st.ticket_id = t.id`
        : ''
    }
    WHERE ${where}
    ${extra}`;
}

/** Sorts on columns that are never null: without a NULLS clause, the report's indexes give their order. */
const NOT_NULL_SORTS: ReadonlySet<ReportSort> = new Set(['id', 'createdAt', 'status']);

function orderSql(order: ReportOrder): string {
  const direction = order.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const nulls = NOT_NULL_SORTS.has(order.sortBy) ? '' : order.sortOrder === 'asc' ? ' NULLS FIRST' : ' NULLS LAST';
  return `ORDER BY ${ORDER_SQL[order.sortBy]} ${direction}${nulls}, t.id ${direction}`;
}

interface ReportRow {
  id: number;
  uuid: string;
  whatsapp_name: string | null;
  contact_name: string;
  user_id: number | null;
  user_name: string | null;
  queue_name: string | null;
  status: string;
  last_message: string;
  created_at: string;
  closed_at: string | null;
  support_time: number | null;
  nps: number | null;
}

export function reportTicketOf(row: ReportRow): ReportTicket {
  return {
    id: row.id,
    uuid: row.uuid,
    whatsappName: row.whatsapp_name,
    contactName: row.contact_name,
    userId: row.user_id,
    userName: row.user_name,
    queueName: row.queue_name,
    status: row.status,
    lastMessage: row.last_message,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    supportTime: row.support_time,
    NPS: row.nps,
  };
}

/** One page of the report and the number of tickets it pages through. */
export async function readReportPage(
  knex: Knex,
  scope: ViewerScope,
  filters: ReportFilters,
  order: ReportOrder,
  page: { number: number; size: number },
): Promise<{ tickets: ReportTicket[]; total: number }> {
  const where = whereSql(scope, filters);
  const offset = (page.number - 1) * page.size;
  const [rows, count] = await Promise.all([
    knex.raw(await rowsSql(knex, where.sql, `${orderSql(order)} LIMIT ${page.size} OFFSET ${offset}`), where.bindings),
    knex.raw(`SELECT count(*)::int AS total FROM tickets t WHERE ${where.sql}`, where.bindings),
  ]);
  return {
    tickets: (rows.rows as ReportRow[]).map(reportTicketOf),
    total: (count.rows as Array<{ total: number }>)[0]?.total ?? 0,
  };
}

/** How many tickets the report holds (the export's progress). */
export async function countReport(knex: Knex, scope: ViewerScope, filters: ReportFilters): Promise<number> {
  const where = whereSql(scope, filters);
  const count = await knex.raw(`SELECT count(*)::int AS total FROM tickets t WHERE ${where.sql}`, where.bindings);
  return (count.rows as Array<{ total: number }>)[0]?.total ?? 0;
}

/**
 * Every row of the report in order, `batchSize` at a time, through a server-side cursor inside one
 * read-only transaction: memory stays flat whatever the number of rows. `onBatch` may wait (backpressure).
 */
export async function streamReport(
  knex: Knex,
  scope: ViewerScope,
  filters: ReportFilters,
  order: ReportOrder,
  onBatch: (rows: ReportTicket[]) => Promise<void>,
  batchSize = 2000,
): Promise<void> {
  const where = whereSql(scope, filters);
  const sql = await rowsSql(knex, where.sql, orderSql(order), true);
  await knex.transaction(
    async (trx) => {
      await trx.raw(`DECLARE insights_report NO SCROLL CURSOR FOR ${sql}`, where.bindings);
      for (;;) {
        const batch = await trx.raw(`FETCH ${batchSize} FROM insights_report`);
        const rows = batch.rows as ReportRow[];
        if (rows.length === 0) break;
        await onBatch(rows.map(reportTicketOf));
        if (rows.length < batchSize) break;
      }
      await trx.raw('CLOSE insights_report');
    },
    { readOnly: true },
  );
}
