import { access, defineRoutes, IdParams, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { eraseContact, exportContact, privacyLog, retentionOf, setRetention } from '../privacy.service';

const Retention = Type.Object(
  { months: Type.Union([Type.Integer({ minimum: 1, maximum: 120 }), Type.Null()]) },
  { title: 'PrivacyRetention' },
);

/**
 * A company's LGPD duties (docs/inbox-api.md "Privacy"), for admins only: one contact's data as a zip,
 * the erasure of one contact, how many months messages are kept, and the log of those actions.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/contacts/:id/export',
    {
      schema: {
        summary: "Download one contact's data as a zip (contact, tickets, messages, media)",
        errors: {},
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Unknown({ description: 'application/zip' }) },
      },
      config: { ...access.admin, fixtureParams: { id: 'contact' } },
    },
    async (request, reply) => {
      const user = await ctx.access.sessionUser(request);
      const { fileName, stream } = await exportContact(ctx, user.companyId, user.id, request.params.id);
      stream.on('error', (error) => request.log.error({ err: error }, 'contact export failed'));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.post(
    '/contacts/:id/erase',
    {
      schema: {
        summary: "Erase one contact's personal data (messages, media, notes); tickets stay as anonymous shells",
        errors: { 400: ['ERR_ERASURE_CONFIRMATION'], 409: ['ERR_ERASURE_OPEN_TICKET'] },
        params: IdParams,
        querystring: NoQuery,
        // the contact's name, typed again by the admin
        body: StrictObject({ confirmation: Type.String({ minLength: 1, maxLength: 250 }) }),
        response: {
          200: Type.Object({
            contactId: Type.Integer(),
            tickets: Type.Integer(),
            messages: Type.Integer(),
            files: Type.Integer(),
          }),
        },
      },
      config: { ...access.admin, fixtureParams: { id: 'contact' } },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return eraseContact(ctx, user.companyId, user.id, request.params.id, request.body.confirmation);
    },
  );

  app.get(
    '/privacy/retention',
    {
      schema: {
        summary: 'How many months messages and media are kept (null: for good)',
        errors: {},
        querystring: NoQuery,
        response: { 200: Retention },
      },
      config: { ...access.admin },
    },
    async (request) => retentionOf(ctx.db.knex, (await ctx.access.sessionUser(request)).companyId),
  );

  app.put(
    '/privacy/retention',
    {
      schema: {
        summary: 'Set how many months messages and media are kept (null: for good)',
        errors: {},
        querystring: NoQuery,
        body: StrictObject({ months: Type.Union([Type.Integer({ minimum: 1, maximum: 120 }), Type.Null()]) }),
        response: { 200: Retention },
      },
      config: { ...access.admin },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return setRetention(ctx.db.knex, user.companyId, user.id, request.body.months);
    },
  );

  app.get(
    '/privacy/log',
    {
      schema: {
        summary: 'The latest 50 exports, erasures and retention runs',
        errors: {},
        querystring: NoQuery,
        response: {
          200: Type.Object({
            entries: Type.Array(
              Type.Object({
                id: Type.Integer(),
                action: Type.Union([Type.Literal('export'), Type.Literal('erase'), Type.Literal('retention')]),
                contactId: Type.Union([Type.Integer(), Type.Null()]),
                user: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
                details: Type.Record(Type.String(), Type.Unknown()),
                createdAt: Type.String(),
              }),
            ),
          }),
        },
      },
      config: { ...access.admin },
    },
    async (request) => ({ entries: await privacyLog(ctx.db.knex, (await ctx.access.sessionUser(request)).companyId) }),
  );
});
