import { access, defineRoutes, Id, NoQuery, Type } from '@balcao/plugin-sdk/server';
import { MomentTicketSchema, MomentUserSchema } from '../schemas';
import { MOMENT_STATUSES, readMoments, readMomentUsers } from '../services/moments.service';
import { parseChoiceList, parseIdList } from '../services/report.service';

/**
 * Moments (docs/product/tickets-and-inbox.md#screens-and-routes, #calls-and-realtime-events): `GET /dashboard/moments` (the panel's tickets) and `GET /usersMoments` (its
 * agents). Admins, and profile users with allowRealTime; opening a ticket stays the inbox's rule (admins, or
 * the ticket's own agent, per docs/product/tickets-and-inbox.md#screens-and-routes).
 */
export default defineRoutes((app, ctx) => {
  const viewer = access.permission('moments:view');

  app.get(
    '/dashboard/moments',
    {
      schema: {
        summary: 'Live attendance: open and pending tickets by agent',
        errors: { 400: ['ERR_INVALID_FILTER'] },
        querystring: Type.Object(
          {
            status: Type.Optional(Type.String({ maxLength: 200 })),
            showAll: Type.Optional(Type.Boolean()),
            queueIds: Type.Optional(Type.String({ maxLength: 4000 })),
            dateStart: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
            dateEnd: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
            userId: Type.Optional(Id),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ tickets: Type.Array(MomentTicketSchema) }) },
      },
      config: viewer,
    },
    async (request) => {
      const companyId = request.session?.companyId ?? 0;
      const query = request.query;
      const statuses = parseChoiceList(query.status, MOMENT_STATUSES) ?? [...MOMENT_STATUSES];
      const since = query.dateStart ? new Date(query.dateStart) : new Date(Date.now() - 30 * 86_400_000);
      const tickets = await readMoments(ctx.db.knex, companyId, {
        statuses,
        queueIds: parseIdList(query.queueIds),
        userId: query.userId,
        since,
        until: query.dateEnd ? new Date(query.dateEnd) : undefined,
      });
      return { tickets };
    },
  );

  app.get(
    '/usersMoments',
    {
      schema: {
        summary: 'Live attendance: agents with their ticket counts',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ users: Type.Array(MomentUserSchema) }) },
      },
      config: viewer,
    },
    async (request) => ({ users: await readMomentUsers(ctx.db.knex, request.session?.companyId ?? 0) }),
  );
});
