import { AppError, access, defineRoutes, Id, NoBody, NoQuery, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { CompanySchema, CreateCompanyBody, Empty, errorResponses, SearchParam, UpdateCompanyBody } from '../schemas';
import * as companies from '../services/companies.service';

const CompanyParams = StrictObject({ companyId: Id });
const PageQuery = StrictObject({ searchParam: Type.Optional(SearchParam), pageNumber: Type.Optional(PageNumber) });

/**
 * The super user's companies (docs/product/administration.md#companies-plans-and-helps, #states-and-transitions, #calls-and-realtime-events Companies). Every route is super-only
 * and reaches other companies' rows on purpose. Writes on one company map, for the test walkers, to a
 * disposable fixture company: walking them on company A would deactivate or delete it mid-walk.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/companies',
    {
      schema: {
        summary: 'List companies (search, paged)',
        errors: {},
        querystring: PageQuery,
        response: { 200: Type.Object({ companies: Type.Array(CompanySchema), count: Type.Integer(), hasMore: Type.Boolean() }) },
      },
      config: access.super,
    },
    async (request) => companies.pageCompanies(ctx, request.query),
  );

  app.get(
    '/companies/list',
    {
      schema: { summary: 'List every company', errors: {}, querystring: NoQuery, response: { 200: Type.Array(CompanySchema) } },
      config: access.super,
    },
    async () => companies.listAllCompanies(ctx),
  );

  app.get(
    '/companiesPlan',
    {
      schema: {
        summary: 'List companies with their plans',
        errors: {},
        querystring: PageQuery,
        response: { 200: Type.Object({ companies: Type.Array(CompanySchema), hasMore: Type.Boolean() }) },
      },
      config: access.super,
    },
    async (request) => {
      const page = await companies.pageCompanies(ctx, request.query);
      return { companies: page.companies, hasMore: page.hasMore };
    },
  );

  app.get(
    '/companies/:companyId',
    {
      schema: {
        summary: 'Get a company',
        errors: { 404: ['ERR_NO_COMPANY_FOUND'] },
        params: CompanyParams,
        querystring: NoQuery,
        response: { 200: CompanySchema, ...errorResponses(404) },
      },
      config: access.super,
    },
    async (request) => companies.getCompany(ctx, request.params.companyId),
  );

  app.post(
    '/companies',
    {
      schema: {
        summary: 'Create a company',
        // its admin user's e-mail is taken (the core's tenancy service); the plan named is not there
        errors: { 404: ['ERR_NO_PLAN_FOUND'], 409: ['ERR_EMAIL_ALREADY_EXISTS'] },
        body: CreateCompanyBody,
        response: { 201: CompanySchema, ...errorResponses(400, 404, 409) },
      },
      config: access.super,
    },
    async (request, reply) => reply.status(201).send(await companies.createCompany(ctx, request.body)),
  );

  app.put(
    '/companies/:companyId',
    {
      schema: {
        summary: 'Update a company',
        errors: { 403: ['ERR_CANNOT_DEACTIVATE_OWN_COMPANY'], 404: ['ERR_NO_COMPANY_FOUND', 'ERR_NO_PLAN_FOUND'] },
        params: CompanyParams,
        body: UpdateCompanyBody,
        response: { 200: CompanySchema, ...errorResponses(400, 403, 404) },
      },
      config: {
        ...access.super,
        fixtureParams: { companyId: 'platformCompany' },
        fixtureBody: (ids: Record<string, number>) => ({
          name: 'Walked company',
          email: 'walked@fixture.test',
          planId: ids.plan,
          status: true,
        }),
      },
    },
    async (request) => companies.updateCompany(ctx, request.params.companyId, request.body),
  );

  app.put(
    '/companies/:companyId/advance-due-date',
    {
      schema: {
        summary: "Move a company's due date one period ahead",
        errors: { 404: ['ERR_NO_COMPANY_FOUND'] },
        params: CompanyParams,
        body: NoBody,
        response: { 200: CompanySchema, ...errorResponses(404) },
      },
      config: { ...access.super, fixtureParams: { companyId: 'platformCompany' } },
    },
    async (request) => companies.advanceDueDate(ctx, request.params.companyId),
  );

  app.delete(
    '/companies/:companyId',
    {
      schema: {
        summary: 'Delete a company and all its data',
        errors: { 403: ['ERR_CANNOT_DELETE_OWN_COMPANY'], 404: ['ERR_NO_COMPANY_FOUND'] },
        params: CompanyParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(403, 404) },
      },
      config: { ...access.super, fixtureParams: { companyId: 'platformCompany' } },
    },
    async (request, reply) => {
      if (!request.session) throw new AppError('ERR_UNAUTHENTICATED');
      await companies.deleteCompany(ctx, request.session, request.params.companyId);
      return reply.status(204).send(null);
    },
  );
});
