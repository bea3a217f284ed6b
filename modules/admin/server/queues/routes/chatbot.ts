import { access, defineRoutes, Id, NoBody, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { ChatbotOptionSchema, ChatbotTreeInput, errorResponses, optionFields as ownFields } from '../schemas';
import { createOption, deleteOption, updateOption } from '../services/chatbot.service';
import { loadOption } from '../services/chatbot-tree';

const ChatbotParams = StrictObject({ chatbotId: Id });

const optionFields = {
  ...ownFields,
  // when given, the option's nested options become exactly these
  options: Type.Optional(ChatbotTreeInput),
};

/**
 * Chatbot options one by one (docs/product/administration.md#calls-and-realtime-events Chatbot: `GET/POST/PUT/DELETE /chatbot`): an option of a
 * queue (or nested under another option, `chatbotId`) with its nested options. Admins only.
 */
export default defineRoutes((app, ctx) => {
  const companyOf = (session: { companyId: number } | null) => session?.companyId as number;

  app.get(
    '/chatbot/:chatbotId',
    {
      schema: {
        summary: 'Get a chatbot option with its sub-options',
        errors: { 404: ['ERR_NO_CHATBOT_FOUND'] },
        params: ChatbotParams,
        querystring: NoQuery,
        response: { 200: ChatbotOptionSchema, ...errorResponses(404) },
      },
      config: access.admin,
    },
    async (request) => loadOption(request.params.chatbotId),
  );

  app.post(
    '/chatbot',
    {
      schema: {
        summary: 'Create a chatbot option',
        errors: {
          400: [
            'ERR_CHATBOT_MESSAGE_REQUIRED',
            'ERR_CHATBOT_QUEUE_REQUIRED',
            'ERR_CHATBOT_USER_REQUIRED',
            'ERR_FILE_LIST_REQUIRED',
          ],
          404: ['ERR_NO_CHATBOT_FOUND', 'ERR_NO_QUEUE_FOUND'],
        },
        body: StrictObject({ queueId: Id, chatbotId: Type.Optional(Type.Union([Id, Type.Null()])), ...optionFields }),
        response: { 201: ChatbotOptionSchema, ...errorResponses(400, 404) },
      },
      config: access.admin,
    },
    async (request, reply) => reply.status(201).send(await createOption(ctx, companyOf(request.session), request.body)),
  );

  app.put(
    '/chatbot/:chatbotId',
    {
      schema: {
        summary: 'Update a chatbot option tree',
        errors: {
          400: [
            'ERR_CHATBOT_MESSAGE_REQUIRED',
            'ERR_CHATBOT_QUEUE_REQUIRED',
            'ERR_CHATBOT_USER_REQUIRED',
            'ERR_FILE_LIST_REQUIRED',
          ],
          404: ['ERR_NO_CHATBOT_FOUND'],
        },
        params: ChatbotParams,
        body: StrictObject({
          name: Type.Optional(optionFields.name),
          greetingMessage: Type.Optional(optionFields.greetingMessage),
          queueType: Type.Optional(optionFields.queueType),
          optQueueId: optionFields.optQueueId,
          optUserId: optionFields.optUserId,
          optIntegrationId: optionFields.optIntegrationId,
          optFileId: optionFields.optFileId,
          closeTicket: optionFields.closeTicket,
          options: optionFields.options,
        }),
        response: { 200: ChatbotOptionSchema, ...errorResponses(400, 404) },
      },
      config: access.admin,
    },
    async (request) => updateOption(ctx, companyOf(request.session), request.params.chatbotId, request.body),
  );

  app.delete(
    '/chatbot/:chatbotId',
    {
      schema: {
        summary: 'Delete a chatbot option and its sub-options',
        errors: { 404: ['ERR_NO_CHATBOT_FOUND'] },
        params: ChatbotParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
      config: access.admin,
    },
    async (request, reply) => {
      await deleteOption(ctx, companyOf(request.session), request.params.chatbotId);
      return reply.status(204).send(null);
    },
  );
});
