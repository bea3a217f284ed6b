import { access, defineRoutes, IdParams, NoBody, NoQuery, Type } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';
import * as prompts from '../services/prompts.service';
import { errorResponses, PromptCreateBody, PromptSchema, PromptUpdateBody } from '../services/schemas';

/** AI prompts (docs/ai.md "Calls"): admins only — users of profile user have no access. */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as AiContext;
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/prompt',
    {
      schema: {
        summary: 'List AI prompts',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ prompts: Type.Array(PromptSchema) }) },
      },
      config: { ...access.admin },
    },
    async (request) => ({ prompts: await prompts.listPrompts(ctx, companyOf(request)) }),
  );

  app.get(
    '/prompt/:id',
    {
      schema: {
        summary: 'Show an AI prompt (keys masked)',
        errors: { 404: ['ERR_NO_PROMPT_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: PromptSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'prompt' } },
    },
    async (request) => prompts.showPrompt(ctx, companyOf(request), request.params.id),
  );

  app.post(
    '/prompt',
    {
      schema: {
        summary: 'Create an AI prompt for a queue',
        errors: {
          400: ['ERR_PROMPT_QUEUE_REQUIRED', 'ERR_PROMPT_API_KEY_REQUIRED'],
          404: ['ERR_NO_QUEUE_FOUND'],
          409: ['ERR_PROMPT_QUEUE_TAKEN'],
        },
        body: PromptCreateBody,
        response: { 200: PromptSchema, ...errorResponses(400, 404, 409) },
      },
      config: {
        ...access.admin,
        fixtureBody: (ids: Record<string, unknown>) => ({
          name: 'Assistente walker',
          prompt: 'Você é um assistente que responde clientes da loja com educação.',
          queueId: ids.freeQueue ?? ids.queue,
          apiKey: 'sk-walker',
        }),
      },
    },
    async (request) => prompts.createPrompt(ctx, companyOf(request), request.body),
  );

  app.put(
    '/prompt/:id',
    {
      schema: {
        summary: 'Change an AI prompt (a blank key keeps the stored one)',
        errors: {
          400: ['ERR_PROMPT_QUEUE_REQUIRED'],
          404: ['ERR_NO_PROMPT_FOUND', 'ERR_NO_QUEUE_FOUND'],
          409: ['ERR_PROMPT_QUEUE_TAKEN'],
        },
        params: IdParams,
        body: PromptUpdateBody,
        response: { 200: PromptSchema, ...errorResponses(400, 404, 409) },
      },
      config: {
        ...access.admin,
        fixtureParams: { id: 'prompt' },
        fixtureBody: (ids: Record<string, unknown>) => ({
          name: 'Assistente',
          prompt: 'Você é um assistente que responde clientes da loja com educação.',
          queueId: ids.promptQueue ?? ids.queue,
        }),
      },
    },
    async (request) => prompts.updatePrompt(ctx, companyOf(request), request.params.id, request.body),
  );

  app.delete(
    '/prompt/:id',
    {
      schema: {
        summary: 'Delete an AI prompt',
        errors: { 404: ['ERR_NO_PROMPT_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'prompt' } },
    },
    async (request) => prompts.deletePrompt(ctx, companyOf(request), request.params.id),
  );
});
