import { access, defineRoutes, IdParams, NoQuery, Type } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';
import * as campaigns from '../services/flow-campaigns.service';
import { Empty, errorResponses, FlowCampaignCreateBody, FlowCampaignSchema, FlowCampaignUpdateBody } from '../services/schemas';

/**
 * Phrase campaigns (docs/product/automation.md#calls-and-realtime-events "Phrase campaigns"): the admin
 * pages' CRUD; deleting needs contacts-page:deleteContact (docs/product/roles-and-permissions.md).
 */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as FlowbuilderContext;
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;
  const writeErrors = { 400: ['ERR_FLOW_CAMPAIGN_FIELDS_REQUIRED'], 404: ['ERR_NO_FLOW_FOUND'] } as const;

  app.get(
    '/flowcampaign',
    {
      schema: {
        summary: 'List phrase campaigns',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ flow: Type.Array(FlowCampaignSchema) }) },
      },
      config: { ...access.admin },
    },
    async () => campaigns.listCampaigns(),
  );

  app.get(
    '/flowcampaign/:id',
    {
      schema: {
        summary: 'Get a phrase campaign',
        errors: { 404: ['ERR_NO_FLOW_CAMPAIGN_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Type.Object({ details: FlowCampaignSchema }), ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'flowCampaign' } },
    },
    async (request) => ({ details: campaigns.campaignJson(await campaigns.loadCampaign(request.params.id)) }),
  );

  app.post(
    '/flowcampaign',
    {
      schema: {
        summary: 'Create a phrase campaign',
        errors: writeErrors,
        body: FlowCampaignCreateBody,
        response: { 200: FlowCampaignSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.admin },
    },
    async (request) => campaigns.createCampaign(ctx, companyOf(request), request.body),
  );

  app.put(
    '/flowcampaign',
    {
      schema: {
        summary: 'Change a phrase campaign (its id in the body)',
        errors: { 400: writeErrors[400], 404: ['ERR_NO_FLOW_FOUND', 'ERR_NO_FLOW_CAMPAIGN_FOUND'] },
        body: FlowCampaignUpdateBody,
        response: { 200: FlowCampaignSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.admin },
    },
    async (request) => campaigns.updateCampaign(ctx, companyOf(request), request.body.id, request.body),
  );

  app.delete(
    '/flowcampaign/:id',
    {
      schema: {
        summary: 'Delete a phrase campaign',
        errors: { 404: ['ERR_NO_FLOW_CAMPAIGN_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...access.permission('contacts-page:deleteContact'), fixtureParams: { id: 'flowCampaign' } },
    },
    async (request, reply) => {
      await campaigns.deleteCampaign(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
});
