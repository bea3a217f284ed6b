import { API_KEY_SCOPES, IdParams, NoBody, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import type { FastifyInstance } from 'fastify';
import type { ApiKeyService } from './api-keys';
import { errors } from './schemas';

const ApiKeySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    scopes: Type.Array(Type.String({ enum: [...API_KEY_SCOPES] })),
    hint: Type.String({ description: 'The first characters of the key, to recognise it' }),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'ApiKey' },
);

const CreateBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  scopes: Type.Array(Type.String({ enum: [...API_KEY_SCOPES] }), {
    minItems: 1,
    maxItems: API_KEY_SCOPES.length,
    uniqueItems: true,
  }),
});

/**
 * A company admin's API keys (docs/api.md "API keys"). Core routes because keys are credentials: the core
 * authenticates them (`ApiKeyService`). No key may manage keys (none of these routes declares a scope).
 */
export function registerApiKeyRoutes(app: FastifyInstance, apiKeys: ApiKeyService): void {
  app.get(
    '/api-keys',
    {
      schema: {
        tags: ['auth'],
        summary: "List the company's API keys (never their secrets)",
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Object({ apiKeys: Type.Array(ApiKeySchema) }) },
      },
      config: { access: 'admin' },
    },
    async (request) => ({ apiKeys: await apiKeys.list((request.session as { companyId: number }).companyId) }),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an API key: the answer is the only time its secret is shown',
        errors: {},
        body: CreateBody,
        response: { 201: Type.Object({ key: Type.String(), apiKey: ApiKeySchema }), ...errors(400) },
      },
      config: { access: 'admin', fixtureBody: { name: 'Walker key', scopes: ['tickets:read'] } },
    },
    async (request, reply) => {
      const session = request.session as { companyId: number; userId: number };
      const body = request.body as { name: string; scopes: Array<(typeof API_KEY_SCOPES)[number]> };
      return reply.status(201).send(await apiKeys.create(session.companyId, session.userId, body));
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke an API key (at once, on every server)',
        errors: { 404: ['ERR_NO_API_KEY_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 200: ApiKeySchema, ...errors(404) },
      },
      config: { access: 'admin', fixtureParams: { id: 'apiKey' } },
    },
    async (request) => {
      const { id } = request.params as { id: number };
      return apiKeys.revoke((request.session as { companyId: number }).companyId, id);
    },
  );
}
