import { PassThrough } from 'node:stream';
import { access, defineRoutes, Id, Type } from '@balcao/plugin-sdk/server';
import { REPORT_SORTS } from '../../shared/types';
import { Day, ReportSchema } from '../schemas';
import { companyTimeZone, resolveRange } from '../services/range';
import {
  parseIdList,
  type ReportFilters,
  type ReportOrder,
  readReportPage,
  reportNpsBands,
  reportStatuses,
} from '../services/report.service';
import { EXPORT_FILE_NAME, writeReportExport } from '../services/report-export';
import { requestScope } from '../services/scope';

/**
 * The ticket report (docs/product/administration.md#reports, #calls-and-realtime-events): `GET /ticketreport/reports` pages it,
 * `GET /ticketreport/reports/export` streams all of it as .xlsx or .csv. Admins, and profile users with
 * showDashboard (the tickets of their queues).
 */
const ListFilter = Type.Optional(Type.String({ maxLength: 4000, description: 'a JSON array (or a comma-separated list)' }));

const FilterQuery = {
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  contactId: Type.Optional(Id),
  whatsappId: Type.Optional(Id),
  users: ListFilter,
  queueIds: ListFilter,
  tags: ListFilter,
  status: ListFilter,
  nps: ListFilter,
  onlyRated: Type.Optional(Type.Boolean()),
  dateFrom: Type.Optional(Day),
  dateTo: Type.Optional(Day),
  sortBy: Type.Optional(Type.Union(REPORT_SORTS.map((sort) => Type.Literal(sort)))),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
};

type FilterInput = {
  searchParam?: string;
  contactId?: number;
  whatsappId?: number;
  users?: string;
  queueIds?: string;
  tags?: string;
  status?: string;
  nps?: string;
  onlyRated?: boolean;
  dateFrom?: string;
  dateTo?: string;
  sortBy?: ReportOrder['sortBy'];
  sortOrder?: ReportOrder['sortOrder'];
};

export default defineRoutes((app, ctx) => {
  const viewer = access.permission('reports:view');

  async function filtersOf(companyId: number, query: FilterInput): Promise<{ filters: ReportFilters; order: ReportOrder }> {
    const zone = await companyTimeZone(ctx, companyId);
    return {
      filters: {
        // the documented default: the first day of the month to today
        range: resolveRange({ from: query.dateFrom, to: query.dateTo }, zone, { required: false }),
        searchParam: query.searchParam,
        contactId: query.contactId,
        whatsappIds: query.whatsappId ? [query.whatsappId] : undefined,
        userIds: parseIdList(query.users),
        queueIds: parseIdList(query.queueIds),
        tagIds: parseIdList(query.tags),
        statuses: reportStatuses(query.status),
        npsBands: reportNpsBands(query.nps),
        onlyRated: query.onlyRated,
      },
      order: { sortBy: query.sortBy ?? 'createdAt', sortOrder: query.sortOrder ?? 'desc' },
    };
  }

  app.get(
    '/ticketreport/reports',
    {
      schema: {
        summary: 'Ticket report (filtered, paged)',
        errors: { 400: ['ERR_DATE_RANGE_TOO_LONG', 'ERR_INVALID_DATE_RANGE', 'ERR_INVALID_FILTER'] },
        querystring: Type.Object(
          {
            ...FilterQuery,
            page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
            pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: ReportSchema },
      },
      config: viewer,
    },
    async (request) => {
      const scope = await requestScope(ctx, request);
      const { filters, order } = await filtersOf(scope.companyId, request.query);
      const page = { number: request.query.page ?? 1, size: request.query.pageSize ?? 10 };
      const { tickets, total } = await readReportPage(ctx.db.knex, scope, filters, order, page);
      return { tickets, totalTickets: { total } };
    },
  );

  app.get(
    '/ticketreport/reports/export',
    {
      schema: {
        summary: 'Export the ticket report as Excel or CSV',
        errors: { 400: ['ERR_DATE_RANGE_TOO_LONG', 'ERR_INVALID_DATE_RANGE', 'ERR_INVALID_FILTER'] },
        querystring: Type.Object(
          {
            ...FilterQuery,
            format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')])),
            language: Type.Optional(Type.Union([Type.Literal('pt'), Type.Literal('en'), Type.Literal('es'), Type.Literal('tr')])),
            exportId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Unknown({ description: 'the .xlsx or .csv file' }) },
      },
      // the walkers' requests export as .csv (cheaper to write than a workbook, hundreds of times)
      config: { ...viewer, fixtureQuery: { format: 'csv' } },
    },
    async (request, reply) => {
      const scope = await requestScope(ctx, request);
      const { filters, order } = await filtersOf(scope.companyId, request.query);
      const format = request.query.format ?? 'xlsx';
      const out = new PassThrough();
      let closed = false;
      reply.raw.on('close', () => {
        closed = true;
      });
      writeReportExport(
        ctx,
        ctx.db.knex,
        scope,
        filters,
        order,
        { format, language: request.query.language ?? 'pt', exportId: request.query.exportId },
        out,
        () => closed,
      ).catch((error: unknown) => {
        request.log.error({ err: error }, 'report export failed');
        out.destroy(error as Error);
      });
      return reply
        .header(
          'content-type',
          format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        )
        .header('content-disposition', `attachment; filename="${EXPORT_FILE_NAME}.${format}"`)
        .header('cache-control', 'no-store')
        .send(out);
    },
  );
});
