import { access, defineRoutes, Id, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { CompanySchedulesSchema, errorResponses, SchedulesSchema } from '../schemas';
import { readCompanySchedules, saveCompanySchedules } from '../services/company-hours.service';

const CompanyParams = StrictObject({ companyId: Id });

/**
 * A company's service hours (docs/product/administration.md#calls-and-realtime-events `PUT /companies/{id}/schedules`; the read is ours, for the
 * Settings page's Schedules tab): the company's admin, or a super user for any company.
 */
export default defineRoutes((app, ctx) => {
  const callerOf = (session: { companyId: number; super: boolean } | null) => ({
    companyId: session?.companyId as number,
    super: session?.super === true,
  });

  app.get(
    '/companies/:companyId/schedules',
    {
      schema: {
        summary: "Get a company's service hours",
        errors: { 404: ['ERR_NO_COMPANY_FOUND'] },
        params: CompanyParams,
        querystring: NoQuery,
        response: { 200: CompanySchedulesSchema, ...errorResponses(404) },
      },
      config: access.admin,
    },
    async (request) => readCompanySchedules(ctx, callerOf(request.session), request.params.companyId),
  );

  app.put(
    '/companies/:companyId/schedules',
    {
      schema: {
        summary: "Set a company's service hours",
        errors: { 400: ['ERR_INVALID_SCHEDULE'], 404: ['ERR_NO_COMPANY_FOUND'] },
        params: CompanyParams,
        body: StrictObject({ schedules: SchedulesSchema, outOfHoursMessage: Type.Optional(Type.String({ maxLength: 10_000 })) }),
        response: { 200: CompanySchedulesSchema, ...errorResponses(400, 404) },
      },
      config: access.admin,
    },
    async (request) => saveCompanySchedules(ctx, callerOf(request.session), request.params.companyId, request.body),
  );
});
