import { AppError, access, defineRoutes, IdParams, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import * as campaigns from '../services/campaigns.service';
import { finishDone } from '../services/lifecycle';
import { CampaignBody, CampaignSchema, Empty, errorResponses, SearchQuery } from '../services/schemas';

/** Who manages campaigns and lists (admins; profile users have no access, docs/product/roles-and-permissions.md#roles-in-automation). */
export const MANAGE = access.permission('campaigns:manage');

/** A valid campaign body for the route walkers: company A's connection and list. */
const fixtureBody = (ids: Record<string, number | string>) => ({
  name: 'Walker campaign',
  message1: 'Olá {nome}',
  whatsappId: Number(ids.whatsapp),
  contactListId: Number(ids.contactList),
  statusTicket: 'closed',
  openTicket: 'disabled',
});

/** Campaigns (docs/product/automation.md#calls-and-realtime-events "Campaigns"). */
export default defineRoutes((app, ctx) => {
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/campaigns',
    {
      schema: {
        summary: 'List campaigns (search, paged)',
        errors: {},
        querystring: SearchQuery,
        response: { 200: Type.Object({ records: Type.Array(CampaignSchema), count: Type.Integer(), hasMore: Type.Boolean() }) },
      },
      config: { ...MANAGE },
    },
    async (request) => campaigns.listCampaigns(ctx, companyOf(request), request.query),
  );

  app.get(
    '/campaigns/:id',
    {
      schema: {
        summary: 'Get a campaign with its report',
        errors: { 404: ['ERR_NO_CAMPAIGN_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: CampaignSchema, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' } },
    },
    async (request) => campaigns.loadCampaign(ctx, companyOf(request), request.params.id),
  );

  app.post(
    '/campaigns',
    {
      schema: {
        summary: 'Create a campaign',
        errors: {
          400: [
            'ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE',
            'ERR_CAMPAIGN_NO_MESSAGE',
            'ERR_CAMPAIGN_NO_RECIPIENTS',
            'ERR_CAMPAIGN_QUEUE_REQUIRED',
          ],
          404: [
            'ERR_NO_CONTACT_LIST_FOUND',
            'ERR_NO_QUEUE_FOUND',
            'ERR_NO_TAG_FOUND',
            'ERR_NO_USER_FOUND',
            'ERR_NO_WHATSAPP_FOUND',
          ],
        },
        body: CampaignBody,
        response: { 200: CampaignSchema, ...errorResponses(400, 404) },
      },
      config: { ...MANAGE, fixtureBody },
    },
    async (request) => campaigns.createCampaign(ctx, companyOf(request), request.body),
  );

  app.put(
    '/campaigns/:id',
    {
      schema: {
        summary: 'Update a campaign',
        errors: {
          400: [
            'ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE',
            'ERR_CAMPAIGN_NO_MESSAGE',
            'ERR_CAMPAIGN_NO_RECIPIENTS',
            'ERR_CAMPAIGN_QUEUE_REQUIRED',
          ],
          404: [
            'ERR_NO_CAMPAIGN_FOUND',
            'ERR_NO_CONTACT_LIST_FOUND',
            'ERR_NO_QUEUE_FOUND',
            'ERR_NO_TAG_FOUND',
            'ERR_NO_USER_FOUND',
            'ERR_NO_WHATSAPP_FOUND',
          ],
          409: ['ERR_CAMPAIGN_NOT_EDITABLE'],
        },
        params: IdParams,
        body: CampaignBody,
        response: { 200: CampaignSchema, ...errorResponses(400, 404, 409) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' }, fixtureBody },
    },
    async (request) => campaigns.updateCampaign(ctx, companyOf(request), request.params.id, request.body),
  );

  app.delete(
    '/campaigns/:id',
    {
      schema: {
        summary: 'Delete a campaign',
        errors: { 404: ['ERR_NO_CAMPAIGN_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' } },
    },
    async (request, reply) => {
      await campaigns.deleteCampaign(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/campaigns/:id/cancel',
    {
      schema: {
        summary: 'Stop a running campaign',
        errors: { 404: ['ERR_NO_CAMPAIGN_FOUND'], 409: ['ERR_CAMPAIGN_NOT_RUNNING'] },
        params: IdParams,
        body: NoBody,
        response: { 200: CampaignSchema, ...errorResponses(404, 409) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' } },
    },
    async (request) => campaigns.cancelCampaign(ctx, companyOf(request), request.params.id),
  );

  app.post(
    '/campaigns/:id/restart',
    {
      schema: {
        summary: 'Restart a cancelled campaign',
        errors: {
          400: ['ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE', 'ERR_CAMPAIGN_NO_MESSAGE', 'ERR_CAMPAIGN_NO_RECIPIENTS'],
          404: ['ERR_NO_CAMPAIGN_FOUND'],
          409: ['ERR_CAMPAIGN_NOT_CANCELLED'],
        },
        params: IdParams,
        body: NoBody,
        response: { 200: CampaignSchema, ...errorResponses(400, 404, 409) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' } },
    },
    async (request) => {
      const companyId = companyOf(request);
      const record = await campaigns.restartCampaign(ctx, companyId, request.params.id);
      // a batch claimed before the cancel may have sent everything: then nothing is left and it ends now
      if ((await finishDone(ctx, new Date(), record.id)) > 0) return campaigns.loadCampaign(ctx, companyId, record.id);
      await ctx.broadcast.publish('campaign-wake', {});
      return record;
    },
  );

  app.post(
    '/campaigns/:id/media-upload',
    {
      schema: {
        summary: 'Attach a file to a campaign',
        errors: { 404: ['ERR_NO_CAMPAIGN_FOUND'], 409: ['ERR_CAMPAIGN_NOT_EDITABLE'], 415: ['ERR_MEDIA_TYPE'] },
        multipart: Type.Object({
          file: Type.String({ format: 'binary', description: 'Image, audio, video, PDF or Office document' }),
        }),
        params: IdParams,
        // multipart (`file`): parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: CampaignSchema, ...errorResponses(400, 404, 409, 413, 415) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' } },
    },
    async (request) => {
      // the campaign first: another company's id is a 404 whatever was sent
      await campaigns.loadCampaign(ctx, companyOf(request), request.params.id);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      for await (const part of request.parts({ limits: { fileSize: campaigns.CAMPAIGN_MEDIA_MAX_BYTES + 1, files: 1 } })) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        const data = await campaigns.readAttachment(part.file);
        if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
        return campaigns.attachMedia(ctx, companyOf(request), request.params.id, { fileName: part.filename || 'file', data });
      }
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
    },
  );

  app.delete(
    '/campaigns/:id/media-upload',
    {
      schema: {
        summary: "Remove a campaign's file",
        errors: { 404: ['ERR_NO_CAMPAIGN_FOUND'], 409: ['ERR_CAMPAIGN_NOT_EDITABLE'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: CampaignSchema, ...errorResponses(404, 409) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'campaign' } },
    },
    async (request) => campaigns.detachMedia(ctx, companyOf(request), request.params.id),
  );
});
