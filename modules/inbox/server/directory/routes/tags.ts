import { access, defineRoutes, Id, IdParams, NoQuery, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { callerOf } from '../caller';
import { Empty, errorResponses, SearchParam, TagRefSchema, TagSchema } from '../schemas';
import * as tags from '../tag.service';

const Kanban = Type.Union([Type.Literal(0), Type.Literal(1)]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

const TagBody = StrictObject({
  name: Type.String({ minLength: 3, maxLength: 100 }),
  color: Type.Optional(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' })),
  kanban: Type.Optional(Kanban),
  userId: Nullable(Id),
  timeLane: Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  nextLaneId: Nullable(Id),
  greetingMessageLane: Nullable(Type.String({ maxLength: 10_000 })),
  rollbackLaneId: Nullable(Id),
});

/** Tags (docs/product/administration.md#calls-and-realtime-events Tags and kanban; docs/product/tickets-and-inbox.md#calls-and-realtime-events tag calls; docs/inbox-api.md). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/tags',
    {
      schema: {
        summary: 'List tags (search, paged)',
        errors: {},
        querystring: StrictObject({
          searchParam: Type.Optional(SearchParam),
          pageNumber: Type.Optional(PageNumber),
          kanban: Type.Optional(Kanban),
          // the documented client may send it; it has no meaning given, so it narrows nothing
          tagId: Type.Optional(Id),
        }),
        response: { 200: Type.Object({ tags: Type.Array(TagSchema), hasMore: Type.Boolean() }) },
      },
      config: access.authenticated,
    },
    async (request) => tags.listTags(ctx, await callerOf(ctx, request), request.query),
  );

  app.get(
    '/tags/list',
    {
      schema: {
        summary: 'List every tag for pickers',
        errors: {},
        // companyId: the documented client sends it; the company is always the session's
        querystring: StrictObject({ kanban: Type.Optional(Kanban), companyId: Type.Optional(Id) }),
        response: { 200: Type.Array(TagSchema) },
      },
      config: access.authenticated,
    },
    async (request) => tags.allTags(ctx, await callerOf(ctx, request), request.query.kanban),
  );

  app.get(
    '/tags/:id',
    {
      schema: {
        summary: 'Get a tag',
        errors: { 404: ['ERR_NO_TAG_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: TagSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'tag' } },
    },
    async (request) => tags.getTag(ctx, (await callerOf(ctx, request)).companyId, request.params.id),
  );

  app.post(
    '/tags',
    {
      schema: {
        summary: 'Create a tag',
        errors: { 403: ['ERR_NO_PERMISSION'] },
        body: TagBody,
        response: { 201: TagSchema, ...errorResponses(400, 403) },
      },
      config: access.authenticated,
    },
    async (request, reply) => reply.status(201).send(await tags.createTag(ctx, await callerOf(ctx, request), request.body)),
  );

  app.put(
    '/tags/:id',
    {
      schema: {
        summary: 'Update a tag',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_TAG_FOUND'] },
        params: IdParams,
        body: TagBody,
        response: { 200: TagSchema, ...errorResponses(400, 403, 404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'tag' } },
    },
    async (request) => tags.updateTag(ctx, await callerOf(ctx, request), request.params.id, request.body),
  );

  app.delete(
    '/tags/:id',
    {
      schema: {
        summary: 'Delete a tag',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_TAG_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(403, 404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'tag' } },
    },
    async (request, reply) => {
      await tags.deleteTag(ctx, await callerOf(ctx, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/tags/sync',
    {
      schema: {
        summary: "Set a contact's tags",
        errors: { 404: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TAG_FOUND'] },
        body: StrictObject({
          contactId: Id,
          tags: Type.Array(StrictObject({ id: Type.Optional(Id), name: Type.String({ maxLength: 100 }) }), { maxItems: 200 }),
        }),
        response: { 200: Type.Object({ tags: Type.Array(TagRefSchema) }), ...errorResponses(400, 404) },
      },
      config: access.authenticated,
    },
    async (request) => ({
      tags: await tags.syncContactTags(ctx, await callerOf(ctx, request), request.body.contactId, request.body.tags),
    }),
  );

  app.delete(
    '/tags-contacts/:tagId/:contactId',
    {
      schema: {
        summary: 'Remove a tag from a contact',
        errors: { 404: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TAG_FOUND'] },
        params: StrictObject({ tagId: Id, contactId: Id }),
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request, reply) => {
      await tags.removeContactTag(ctx, await callerOf(ctx, request), request.params.tagId, request.params.contactId);
      return reply.status(204).send(null);
    },
  );
});
