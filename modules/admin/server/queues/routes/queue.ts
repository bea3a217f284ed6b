import { access, defineRoutes, Id, NoBody, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { ChatbotTreeInput, errorResponses, QueueSchema, queueBodyFields } from '../schemas';
import { createQueue, deleteQueue, loadQueue, updateQueue } from '../services/queue.service';

const QueueParams = StrictObject({ queueId: Id });
const { name, color, chatbots, ...optional } = queueBodyFields;
/** What a queue and its option tree are checked against on create and change (queue.service.ts, chatbot-tree.ts). */
const QUEUE_WRITE_ERRORS = {
  400: [
    'ERR_WAPP_GREETING_REQUIRED',
    'ERR_OUT_OF_HOURS_MESSAGE_REQUIRED',
    'ERR_INVALID_SCHEDULE',
    'ERR_CHATBOT_QUEUE_REQUIRED',
    'ERR_CHATBOT_USER_REQUIRED',
    'ERR_CHATBOT_MESSAGE_REQUIRED',
    'ERR_FILE_LIST_REQUIRED',
  ],
  409: ['ERR_QUEUE_COLOR_ALREADY_EXISTS'],
} as const;

/**
 * Queues administration (docs/product/administration.md#calls-and-realtime-events Queues): read one with its option tree, create, change,
 * delete. Admins only (profile user denied, docs/product/roles-and-permissions.md#roles-in-administration). `GET /queue` (the list) stays the inbox's.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/queue/:queueId',
    {
      schema: {
        summary: 'Get a queue with its chatbot',
        errors: { 404: ['ERR_NO_QUEUE_FOUND'] },
        params: QueueParams,
        querystring: NoQuery,
        response: { 200: QueueSchema, ...errorResponses(404) },
      },
      config: access.admin,
    },
    async (request) => loadQueue(request.params.queueId),
  );

  app.post(
    '/queue',
    {
      schema: {
        summary: 'Create a queue',
        errors: { ...QUEUE_WRITE_ERRORS, 403: ['ERR_QUEUE_PLAN_LIMIT'], 404: ['ERR_NO_CHATBOT_FOUND'] },
        // docs/product/administration.md#validation: the chatbot list is required (empty: a queue without a menu)
        body: StrictObject({ name, color, chatbots: ChatbotTreeInput, ...optional }),
        response: { 201: QueueSchema, ...errorResponses(400, 403, 404, 409) },
      },
      config: access.admin,
    },
    async (request, reply) => reply.status(201).send(await createQueue(ctx, request.session?.companyId as number, request.body)),
  );

  app.put(
    '/queue/:queueId',
    {
      schema: {
        summary: 'Update a queue',
        errors: { ...QUEUE_WRITE_ERRORS, 404: ['ERR_NO_QUEUE_FOUND', 'ERR_NO_CHATBOT_FOUND'] },
        params: QueueParams,
        // the tree is left as it is when `chatbots` is absent (a change of name or colour alone)
        body: StrictObject({ name: Type.Optional(name), color: Type.Optional(color), chatbots, ...optional }),
        response: { 200: QueueSchema, ...errorResponses(400, 404, 409) },
      },
      config: access.admin,
    },
    async (request) => updateQueue(ctx, request.session?.companyId as number, request.params.queueId, request.body),
  );

  app.delete(
    '/queue/:queueId',
    {
      schema: {
        summary: 'Delete a queue',
        errors: { 404: ['ERR_NO_QUEUE_FOUND'] },
        params: QueueParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
      config: access.admin,
    },
    async (request, reply) => {
      await deleteQueue(ctx, request.session?.companyId as number, request.params.queueId);
      return reply.status(204).send(null);
    },
  );
});
