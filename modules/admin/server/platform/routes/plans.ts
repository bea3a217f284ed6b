import { access, defineRoutes, Id, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { Empty, errorResponses, PlanBody, PlanSchema, PluginFlagList } from '../schemas';
import * as plans from '../services/plans.service';

const PlanParams = StrictObject({ planId: Id });

/**
 * The super user's plans (docs/product/administration.md#calls-and-realtime-events: GET /plans/all, POST, PUT, DELETE). The public list for
 * signup (`GET /plans/list`) and a company's plan (`/companies/listPlan/:companyId`) are the core's.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/plans/all',
    {
      schema: { summary: 'List every plan', errors: {}, querystring: NoQuery, response: { 200: Type.Array(PlanSchema) } },
      config: access.super,
    },
    async () => plans.listPlans(ctx),
  );

  app.get(
    '/plans/flags',
    {
      schema: {
        summary: 'List the plan flags the loaded plugins declare',
        errors: {},
        querystring: NoQuery,
        response: { 200: PluginFlagList },
      },
      config: access.super,
    },
    async () => plans.pluginFlagList(ctx),
  );

  app.post(
    '/plans',
    {
      schema: {
        summary: 'Create a plan',
        errors: { 400: ['ERR_UNKNOWN_PLAN_FLAG'], 409: ['ERR_PLAN_NAME_ALREADY_EXISTS'] },
        body: PlanBody,
        response: { 201: PlanSchema, ...errorResponses(400, 409) },
      },
      config: access.super,
    },
    async (request, reply) => reply.status(201).send(await plans.createPlan(ctx, request.body)),
  );

  app.put(
    '/plans/:planId',
    {
      schema: {
        summary: 'Update a plan',
        errors: { 400: ['ERR_UNKNOWN_PLAN_FLAG'], 404: ['ERR_NO_PLAN_FOUND'], 409: ['ERR_PLAN_NAME_ALREADY_EXISTS'] },
        params: PlanParams,
        body: PlanBody,
        response: { 200: PlanSchema, ...errorResponses(400, 404, 409) },
      },
      config: access.super,
    },
    async (request) => plans.updatePlan(ctx, request.params.planId, request.body),
  );

  app.delete(
    '/plans/:planId',
    {
      schema: {
        summary: 'Delete a plan no company uses',
        errors: { 404: ['ERR_NO_PLAN_FOUND'], 409: ['ERR_PLAN_IN_USE'] },
        params: PlanParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404, 409) },
      },
      config: access.super,
    },
    async (request, reply) => {
      await plans.deletePlan(ctx, request.params.planId);
      return reply.status(204).send(null);
    },
  );
});
