import { access, defineRoutes, Id, IdParams, NoBody, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import {
  createEmbedKey,
  deleteEmbedKey,
  embedKeyJson,
  findEmbedKey,
  listEmbedKeys,
  revokeEmbedKey,
  rotateEmbedSecret,
  updateEmbedKey,
} from '../services/embed-keys.service';
import { EmbedKeySchema, Empty, ErrorBody } from '../services/schemas';

const EmbedKeyBody = StrictObject({
  name: Type.String({ minLength: 3, maxLength: 100 }),
  allowedOrigins: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20 }),
  mayMove: Type.Boolean(),
  signedUsers: Type.Boolean(),
  laneIds: Type.Union([Type.Array(Id, { maxItems: 100 }), Type.Null()]),
});

const byId = { ...access.admin, fixtureParams: { id: 'kanbanEmbedKey' } };

/** Admins' embed keys of the kanban widget (docs/kanban.md "Embed keys"). */
export default defineRoutes((app) => {
  app.get(
    '/kanban-embed-keys',
    {
      schema: {
        summary: 'List kanban embed keys',
        errors: {},
        querystring: NoQuery,
        response: { 200: Type.Array(EmbedKeySchema) },
      },
      config: access.admin,
    },
    async () => listEmbedKeys(),
  );

  app.get(
    '/kanban-embed-keys/:id',
    {
      schema: {
        summary: 'Get a kanban embed key',
        errors: { 404: ['ERR_NO_EMBED_KEY_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: EmbedKeySchema, 404: ErrorBody },
      },
      config: byId,
    },
    async (request) => embedKeyJson(await findEmbedKey(request.params.id)),
  );

  app.post(
    '/kanban-embed-keys',
    {
      schema: {
        summary: 'Create a kanban embed key',
        errors: {},
        body: EmbedKeyBody,
        response: { 201: EmbedKeySchema, 400: ErrorBody },
      },
      config: access.admin,
    },
    async (request, reply) => reply.status(201).send(await createEmbedKey(request.body)),
  );

  app.put(
    '/kanban-embed-keys/:id',
    {
      schema: {
        summary: 'Update a kanban embed key',
        errors: { 404: ['ERR_NO_EMBED_KEY_FOUND'] },
        params: IdParams,
        body: EmbedKeyBody,
        response: { 200: EmbedKeySchema, 400: ErrorBody, 404: ErrorBody },
      },
      config: byId,
    },
    async (request) => updateEmbedKey(request.params.id, request.body),
  );

  app.post(
    '/kanban-embed-keys/:id/revoke',
    {
      schema: {
        summary: 'Revoke a kanban embed key',
        errors: { 404: ['ERR_NO_EMBED_KEY_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 200: EmbedKeySchema, 404: ErrorBody },
      },
      config: byId,
    },
    async (request) => revokeEmbedKey(request.params.id),
  );

  app.post(
    '/kanban-embed-keys/:id/secret',
    {
      schema: {
        summary: 'Give a kanban embed key a new signing secret',
        errors: { 404: ['ERR_NO_EMBED_KEY_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 200: EmbedKeySchema, 404: ErrorBody },
      },
      config: byId,
    },
    async (request) => rotateEmbedSecret(request.params.id),
  );

  app.delete(
    '/kanban-embed-keys/:id',
    {
      schema: {
        summary: 'Delete a kanban embed key',
        errors: { 404: ['ERR_NO_EMBED_KEY_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, 404: ErrorBody },
      },
      config: byId,
    },
    async (request, reply) => {
      await deleteEmbedKey(request.params.id);
      return reply.status(204).send(null);
    },
  );
});
