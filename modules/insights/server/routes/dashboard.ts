import { AppError, access, defineRoutes, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { DashboardSchema, Day, TicketsDaySchema, TicketsUsersSchema } from '../schemas';
import { readDashboard, readTicketsPerDay, readTicketsPerUser } from '../services/dashboard.service';
import { companyTimeZone, MAX_RANGE_DAYS, resolveRange } from '../services/range';
import { requestScope } from '../services/scope';
import { changeTimeZone } from '../services/time-zone';

/**
 * The dashboard's calls (docs/product/tickets-and-inbox.md#calls-and-realtime-events "Dashboard"): `GET /dashboard` (counters and attendants of a range),
 * `GET /dashboard/ticketsDay` and `/dashboard/ticketsUsers` (the charts), and the company's time zone the
 * days are counted in. Admins, and profile users with showDashboard (their queues only).
 */
export default defineRoutes((app, ctx) => {
  const viewer = access.permission('dashboard:view');

  app.get(
    '/dashboard',
    {
      schema: {
        summary: 'Dashboard indicators for a period',
        errors: { 400: ['ERR_DASHBOARD_FILTER_REQUIRED', 'ERR_DATE_RANGE_TOO_LONG', 'ERR_INVALID_DATE_RANGE'] },
        querystring: StrictObject({
          days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RANGE_DAYS })),
          date_from: Type.Optional(Day),
          date_to: Type.Optional(Day),
        }),
        response: { 200: DashboardSchema },
      },
      config: { ...viewer, fixtureQuery: { days: 30 } },
    },
    async (request) => {
      const scope = await requestScope(ctx, request);
      const zone = await companyTimeZone(ctx, scope.companyId);
      const range = resolveRange({ days: request.query.days, from: request.query.date_from, to: request.query.date_to }, zone);
      return readDashboard(ctx.db.knex, scope, range);
    },
  );

  // the charts: `companyId` of the documented call is accepted and ignored (always the caller's company)
  const ChartQuery = StrictObject({
    initialDate: Type.Optional(Day),
    finalDate: Type.Optional(Day),
    companyId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  });

  app.get(
    '/dashboard/ticketsDay',
    {
      schema: {
        summary: 'Tickets per day (or hour) in a period',
        errors: { 400: ['ERR_DASHBOARD_FILTER_REQUIRED', 'ERR_DATE_RANGE_TOO_LONG', 'ERR_INVALID_DATE_RANGE'] },
        querystring: ChartQuery,
        response: { 200: TicketsDaySchema },
      },
      config: viewer,
    },
    async (request) => {
      const scope = await requestScope(ctx, request);
      const zone = await companyTimeZone(ctx, scope.companyId);
      const range = resolveRange({ from: request.query.initialDate, to: request.query.finalDate }, zone, { required: false });
      return readTicketsPerDay(ctx.db.knex, scope, range);
    },
  );

  app.get(
    '/dashboard/ticketsUsers',
    {
      schema: {
        summary: 'Tickets per agent in a period',
        errors: { 400: ['ERR_DASHBOARD_FILTER_REQUIRED', 'ERR_DATE_RANGE_TOO_LONG', 'ERR_INVALID_DATE_RANGE'] },
        querystring: ChartQuery,
        response: { 200: TicketsUsersSchema },
      },
      config: viewer,
    },
    async (request) => {
      const scope = await requestScope(ctx, request);
      const zone = await companyTimeZone(ctx, scope.companyId);
      const range = resolveRange({ from: request.query.initialDate, to: request.query.finalDate }, zone, { required: false });
      return readTicketsPerUser(ctx.db.knex, scope, range);
    },
  );

  const TimeZoneSchema = Type.Object({ timezone: Type.String() });

  app.get(
    '/dashboard/timezone',
    {
      schema: { summary: "Get the dashboard's time zone", errors: {}, querystring: NoQuery, response: { 200: TimeZoneSchema } },
      config: viewer,
    },
    async (request) => {
      const scope = await requestScope(ctx, request);
      return { timezone: await companyTimeZone(ctx, scope.companyId) };
    },
  );

  app.put(
    '/dashboard/timezone',
    {
      schema: {
        summary: "Set the dashboard's time zone",
        errors: { 400: ['ERR_INVALID_TIME_ZONE'], 403: ['ERR_NO_PERMISSION'] },
        body: StrictObject({ timezone: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: TimeZoneSchema },
      },
      config: { ...access.admin, fixtureBody: { timezone: 'America/Sao_Paulo' } },
    },
    async (request) => {
      const companyId = request.session?.companyId;
      if (!companyId) throw new AppError('ERR_NO_PERMISSION');
      await changeTimeZone(ctx, companyId, request.body.timezone);
      return { timezone: request.body.timezone };
    },
  );
});
