import {
  AppError,
  access,
  defineRoutes,
  Id,
  IdParams,
  NoBody,
  NoQuery,
  PageNumber,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import { FLOW_MEDIA_LIMITS, type FlowMediaKind } from '../../shared/flow-document';
import type { FlowbuilderContext } from '../config';
import { FlowBuilder } from '../models';
import { flowPath } from '../services/flow-runs.service';
import * as flows from '../services/flows.service';
import { Empty, errorResponses } from '../services/schemas';

const FLOWS_PAGE_SIZE = 40;
/** The most files one content upload carries. */
const CONTENT_MAX_FILES = 20;

const FlowSummary = Type.Object({ id: Type.Integer(), name: Type.String(), active: Type.Boolean() });
const FlowDocumentSchema = Type.Object(
  { nodes: Type.Array(Type.Unknown()), connections: Type.Array(Type.Unknown()) },
  { additionalProperties: true },
);
const FlowSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    active: Type.Boolean(),
    flow: Type.Union([FlowDocumentSchema, Type.Null()]),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'Flow' },
);
const ProblemSchema = Type.Object({
  nodeId: Type.Union([Type.String(), Type.Null()]),
  code: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  detail: Type.Optional(Type.Union([Type.String(), Type.Number()])),
});
const FlowName = Type.String({ maxLength: 200 });

/**
 * The flows (docs/product/automation.md#calls-and-realtime-events "Flows"): list, create, rename,
 * duplicate, delete, read and save the document, the media of its nodes, and a ticket's path through its
 * flow for the replay view. Admins only; the plan gate is the plugin's.
 */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as FlowbuilderContext;
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/flowbuilder',
    {
      schema: {
        summary: 'List flows (search, paged)',
        errors: {},
        querystring: StrictObject({
          searchParam: Type.Optional(Type.String({ maxLength: 200 })),
          pageNumber: Type.Optional(PageNumber),
        }),
        response: { 200: Type.Object({ flows: Type.Array(FlowSummary), hasMore: Type.Boolean() }) },
      },
      config: { ...access.admin },
    },
    async (request) => {
      const page = request.query.pageNumber ?? 1;
      const query = FlowBuilder.query().orderBy('name').orderBy('id');
      const search = request.query.searchParam?.trim();
      if (search) query.whereRaw("name ILIKE ? ESCAPE '\\'", [`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
      const rows = await query
        .limit(FLOWS_PAGE_SIZE + 1)
        .offset((page - 1) * FLOWS_PAGE_SIZE)
        .select('id', 'name', 'active');
      return {
        flows: rows.slice(0, FLOWS_PAGE_SIZE).map(({ id, name, active }) => ({ id, name, active })),
        hasMore: rows.length > FLOWS_PAGE_SIZE,
      };
    },
  );

  app.post(
    '/flowbuilder',
    {
      schema: {
        summary: 'Create a flow (no document yet)',
        errors: { 400: ['ERR_FLOW_NAME_INVALID'] },
        body: StrictObject({ name: FlowName }),
        response: { 200: FlowSchema, ...errorResponses(400) },
      },
      config: { ...access.admin },
    },
    async (request) => flows.createFlow(ctx, companyOf(request), request.body.name),
  );

  app.put(
    '/flowbuilder',
    {
      schema: {
        summary: 'Rename a flow (its id in the body)',
        errors: { 400: ['ERR_FLOW_NAME_INVALID'], 404: ['ERR_NO_FLOW_FOUND'] },
        body: StrictObject({ flowId: Id, name: FlowName }),
        response: { 200: FlowSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.admin },
    },
    async (request) => flows.renameFlow(ctx, companyOf(request), request.body.flowId, request.body.name),
  );

  app.post(
    '/flowbuilder/duplicate',
    {
      schema: {
        summary: 'Duplicate a flow',
        errors: { 404: ['ERR_NO_FLOW_FOUND'] },
        body: StrictObject({ flowId: Id }),
        response: { 200: FlowSchema, ...errorResponses(404) },
      },
      config: { ...access.admin },
    },
    async (request) => flows.duplicateFlow(ctx, companyOf(request), request.body.flowId),
  );

  app.delete(
    '/flowbuilder/:id',
    {
      schema: {
        summary: 'Delete a flow (its phrase campaigns with it)',
        errors: { 404: ['ERR_NO_FLOW_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'flow' } },
    },
    async (request, reply) => {
      await flows.deleteFlow(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  for (const path of ['/flowbuilder/flow/:id', '/flowbuilder/:id'] as const) {
    app.get(
      path,
      {
        schema: {
          summary:
            path === '/flowbuilder/:id' ? 'Get a flow (as the connection editor reads it)' : 'Get a flow with its document',
          errors: { 404: ['ERR_NO_FLOW_FOUND'] },
          params: IdParams,
          querystring: NoQuery,
          response: {
            200: Type.Object({
              flow: FlowSchema,
              // whether an openai node may be saved and run: the editor offers the node only then
              openaiAvailable: Type.Boolean(),
            }),
            ...errorResponses(404),
          },
        },
        config: { ...access.admin, fixtureParams: { id: 'flow' } },
      },
      async (request) => ({
        flow: flows.flowJson(ctx, await flows.loadFlow(request.params.id)),
        openaiAvailable: await flows.openaiAvailable(ctx, companyOf(request)),
      }),
    );
  }

  app.post(
    '/flowbuilder/flow',
    {
      schema: {
        summary: "Save a flow's document (checked: 400 ERR_FLOW_INVALID names the node)",
        errors: { 400: ['ERR_FLOW_INVALID'], 404: ['ERR_NO_FLOW_FOUND'] },
        body: StrictObject({
          idFlow: Id,
          nodes: Type.Array(Type.Unknown(), { maxItems: 5_000 }),
          connections: Type.Array(Type.Unknown(), { maxItems: 20_000 }),
        }),
        response: {
          200: Type.Object({ flow: FlowSchema, problems: Type.Array(ProblemSchema) }),
          ...errorResponses(400, 404),
        },
      },
      config: { ...access.admin, bodyLimit: 2 * 1024 * 1024 },
    },
    async (request) =>
      flows.saveFlowDocument(ctx, companyOf(request), request.body.idFlow, {
        nodes: request.body.nodes,
        connections: request.body.connections,
      }),
  );

  // one file for an image, audio or video node: the stored name comes back for the node's url
  const single: Array<[string, FlowMediaKind]> = [
    ['/flowbuilder/img', 'img'],
    ['/flowbuilder/audio', 'audio'],
    ['/flowbuilder/video', 'video'],
  ];
  for (const [path, kind] of single) {
    app.post(
      path,
      {
        schema: {
          summary: `Upload a ${kind} node's file (${FLOW_MEDIA_LIMITS[kind].extensions.join(', ')}, ${FLOW_MEDIA_LIMITS[kind].maxBytes / 1024 / 1024} MB)`,
          errors: { 400: ['ERR_FLOW_MEDIA_TYPE', 'ERR_FLOW_MEDIA_TOO_LARGE'] },
          multipart: Type.Object({ file: Type.String({ format: 'binary' }) }),
          querystring: NoQuery,
          body: NoBody,
          response: { 200: Type.Object({ name: Type.String() }), ...errorResponses(400, 413, 415) },
        },
        config: { ...access.admin },
      },
      async (request) => {
        if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
        for await (const part of request.parts({ limits: { fileSize: FLOW_MEDIA_LIMITS[kind].maxBytes + 1, files: 1 } })) {
          if (part.type !== 'file') continue;
          const data = await flows.readUpload(part.file);
          if (part.file.truncated) throw new AppError('ERR_FLOW_MEDIA_TOO_LARGE');
          const name = await flows.storeFlowMedia(ctx, companyOf(request), { fileName: part.filename || 'file', data }, [kind]);
          return { name };
        }
        throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
      },
    );
  }

  app.post(
    '/flowbuilder/content',
    {
      schema: {
        summary: "Upload a content node's files (medias: images, audio, video, each within its limit)",
        errors: { 400: ['ERR_FLOW_MEDIA_TYPE', 'ERR_FLOW_MEDIA_TOO_LARGE'] },
        multipart: Type.Object({ medias: Type.Array(Type.String({ format: 'binary' })), body: Type.Optional(Type.String()) }),
        querystring: NoQuery,
        body: NoBody,
        response: { 200: Type.Object({ names: Type.Array(Type.String()) }), ...errorResponses(400, 413, 415) },
      },
      config: { ...access.admin },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      const names: string[] = [];
      const limit = FLOW_MEDIA_LIMITS.video.maxBytes + 1;
      for await (const part of request.parts({ limits: { fileSize: limit, files: CONTENT_MAX_FILES } })) {
        if (part.type !== 'file') continue;
        const data = await flows.readUpload(part.file);
        if (part.file.truncated) throw new AppError('ERR_FLOW_MEDIA_TOO_LARGE');
        names.push(
          await flows.storeFlowMedia(ctx, companyOf(request), { fileName: part.filename || 'file', data }, [
            'img',
            'audio',
            'video',
          ]),
        );
      }
      if (names.length === 0)
        throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.medias', message: 'is required' }] });
      return { names };
    },
  );

  app.get(
    '/flowbuilder/runs/:ticketId',
    {
      schema: {
        summary: "A ticket's path through its flow, with the variables at each step (the replay view)",
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ ticketId: Id }),
        querystring: NoQuery,
        response: {
          200: Type.Object({
            flowId: Type.Union([Type.Integer(), Type.Null()]),
            steps: Type.Array(
              Type.Object({
                nodeId: Type.String(),
                at: Type.String(),
                variables: Type.Record(Type.String(), Type.String()),
              }),
            ),
          }),
          ...errorResponses(404),
        },
      },
      config: { ...access.admin, fixtureParams: { ticketId: 'ticket' } },
    },
    async (request) => flowPath(ctx, companyOf(request), request.params.ticketId),
  );
});
