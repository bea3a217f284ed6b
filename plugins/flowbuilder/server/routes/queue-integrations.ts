import { AppError, access, defineRoutes, IdParams, NoQuery, Type } from '@balcao/plugin-sdk/server';
import type { FlowbuilderContext } from '../config';
import { askDialogflow, parseServiceAccount } from '../services/clients/dialogflow';
import { sanitizeAnswer } from '../services/clients/types';
import { integrationHttp } from '../services/http';
import * as integrations from '../services/integrations.service';
import { failureReason } from '../services/runner';
import {
  Empty,
  errorResponses,
  IntegrationBody,
  IntegrationSchema,
  SearchQuery,
  TestSessionAnswer,
  TestSessionBody,
} from '../services/schemas';
import { secretsKey, unseal } from '../services/secrets';

/**
 * Queue integrations (docs/product/automation.md#calls-and-realtime-events "Queue integrations"): admins
 * only — users of profile user have no access (docs/product/roles-and-permissions.md).
 */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as FlowbuilderContext;
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/queueIntegration',
    {
      schema: {
        summary: 'List queue integrations (search, paged)',
        errors: {},
        querystring: SearchQuery,
        response: { 200: Type.Object({ queueIntegrations: Type.Array(IntegrationSchema), hasMore: Type.Boolean() }) },
      },
      config: { ...access.admin },
    },
    async (request) => integrations.pageIntegrations(request.query),
  );

  app.post(
    '/queueIntegration/testSession',
    {
      schema: {
        summary: 'Try a DialogFlow service account with one question',
        errors: {
          400: ['ERR_INTEGRATION_LANGUAGE_REQUIRED', 'ERR_INTEGRATION_CREDENTIALS_INVALID'],
          404: ['ERR_NO_INTEGRATION_FOUND'],
          502: ['ERR_INTEGRATION_UNREACHABLE'],
        },
        body: TestSessionBody,
        response: { 200: TestSessionAnswer, ...errorResponses(400, 404, 502) },
      },
      config: { ...access.admin },
    },
    async (request) => {
      const body = request.body;
      let jsonContent = body.jsonContent?.trim() ?? '';
      let language = body.language?.trim() ?? '';
      if (jsonContent === '' && body.integrationId !== undefined) {
        const stored = await integrations.loadIntegration(body.integrationId);
        jsonContent = stored.jsonContentSealed ? (unseal(secretsKey(ctx), stored.jsonContentSealed) ?? '') : '';
        if (language === '') language = stored.language;
      }
      if (!(integrations.DIALOGFLOW_LANGUAGES as readonly string[]).includes(language)) {
        throw new AppError('ERR_INTEGRATION_LANGUAGE_REQUIRED');
      }
      const account = parseServiceAccount(jsonContent);
      if (!account) throw new AppError('ERR_INTEGRATION_CREDENTIALS_INVALID');
      try {
        const answer = await askDialogflow(
          { http: integrationHttp(ctx), apiUrl: ctx.config.FLOWBUILDER_DIALOGFLOW_URL },
          { language, account },
          {
            body: body.text ?? 'Olá',
            messageId: null,
            ticket: { id: 0, status: 'pending', queueId: null, whatsappId: null },
            contact: { id: 0, name: '', number: '' },
            sessionId: null,
          },
        );
        return { ok: true, messages: sanitizeAnswer(answer).messages };
      } catch (error) {
        const reason = failureReason(error);
        throw new AppError('ERR_INTEGRATION_UNREACHABLE', { reason });
      }
    },
  );

  app.get(
    '/queueIntegration/:id',
    {
      schema: {
        summary: 'Get a queue integration',
        errors: { 404: ['ERR_NO_INTEGRATION_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: IntegrationSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'integration' } },
    },
    async (request) => integrations.integrationJson(await integrations.loadIntegration(request.params.id)),
  );

  const writeErrors = {
    400: [
      'ERR_INTEGRATION_NAME_REQUIRED',
      'ERR_INTEGRATION_LANGUAGE_REQUIRED',
      'ERR_INTEGRATION_URL_REQUIRED',
      'ERR_INTEGRATION_CREDENTIALS_INVALID',
      'ERR_INTEGRATION_FLOW_REQUIRED',
    ],
  } as const;
  // the walkers' body: a flowbuilder integration, so that the flow it names is what another company's id is tried in
  const fixtureBody = (ids: Record<string, unknown>) => ({ type: 'flowbuilder', name: 'Fluxo integrado', flowId: ids.flow });

  app.post(
    '/queueIntegration',
    {
      schema: {
        summary: 'Create a queue integration',
        errors: { ...writeErrors },
        body: IntegrationBody,
        response: { 200: IntegrationSchema, ...errorResponses(400) },
      },
      config: { ...access.admin, fixtureBody },
    },
    async (request) => integrations.createIntegration(ctx, companyOf(request), request.body),
  );

  app.put(
    '/queueIntegration/:id',
    {
      schema: {
        summary: 'Change a queue integration (an empty jsonContent keeps the stored one)',
        errors: { ...writeErrors, 404: ['ERR_NO_INTEGRATION_FOUND'] },
        params: IdParams,
        body: IntegrationBody,
        response: { 200: IntegrationSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'integration' }, fixtureBody },
    },
    async (request) => integrations.updateIntegration(ctx, companyOf(request), request.params.id, request.body),
  );

  app.delete(
    '/queueIntegration/:id',
    {
      schema: {
        summary: 'Delete a queue integration (what named it forgets it)',
        errors: { 404: ['ERR_NO_INTEGRATION_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'integration' } },
    },
    async (request, reply) => {
      await integrations.deleteIntegration(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
});
