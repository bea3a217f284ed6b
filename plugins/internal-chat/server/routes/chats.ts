import {
  AppError,
  access,
  defineRoutes,
  IdParams,
  isStorableText,
  NoBody,
  NoQuery,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import { fileTypeFromBuffer } from 'file-type';
import * as chats from '../services/chats.service';
import {
  ChatListQuery,
  ChatListSchema,
  ChatMessageSchema,
  ChatSchema,
  CreateChatBody,
  Empty,
  errorResponses,
  MESSAGE_MAX_LENGTH,
  MessagePageSchema,
  MessagesQuery,
  ReadBody,
  SendMessageBody,
  UpdateChatBody,
} from '../services/schemas';

/** The largest file a chat message carries (20 MB, as the inbox's documents). */
export const CHAT_FILE_MAX_BYTES = 20 * 1024 * 1024;

const CHAT = { ...access.authenticated, fixtureParams: { id: 'chat' } };

/** The internal chat's calls (docs/product/automation.md "Internal chat"; plan flag useInternalChat). */
export default defineRoutes((app, ctx) => {
  const knex = ctx.db.knex;
  const caller = (request: { session: { companyId: number; userId: number } | null }) =>
    request.session as { companyId: number; userId: number };

  app.get(
    '/chats',
    {
      schema: {
        summary: "List the caller's chats (latest first, 20 a page)",
        querystring: ChatListQuery,
        response: { 200: ChatListSchema },
      },
      config: access.authenticated,
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.listChats(knex, companyId, userId, request.query);
    },
  );

  app.get(
    '/chats/u/:uuid',
    {
      schema: {
        summary: 'Get a chat by its uuid (members only)',
        errors: { 404: ['ERR_NO_CHAT_FOUND'] },
        params: StrictObject({ uuid: Type.String({ format: 'uuid' }) }),
        querystring: NoQuery,
        response: { 200: ChatSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { uuid: 'chatUuid' } },
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.memberChatByUuid(knex, companyId, request.params.uuid, userId);
    },
  );

  app.get(
    '/chats/:id',
    {
      schema: {
        summary: 'Get a chat (members only)',
        errors: { 404: ['ERR_NO_CHAT_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ChatSchema, ...errorResponses(404) },
      },
      config: CHAT,
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.memberChat(knex, companyId, request.params.id, userId);
    },
  );

  app.post(
    '/chats',
    {
      schema: {
        summary: 'Create a chat with a title and members (the caller owns it)',
        errors: { 404: ['ERR_NO_USER_FOUND'] },
        body: CreateChatBody,
        response: { 200: ChatSchema, ...errorResponses(404) },
      },
      config: {
        ...access.authenticated,
        fixtureBody: (ids: Record<string, number | string>) => ({ title: 'Walker', users: [Number(ids.user)] }),
      },
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.createChat(ctx, companyId, userId, request.body);
    },
  );

  app.put(
    '/chats/:id',
    {
      schema: {
        summary: 'Rename a chat or change its members (its owner only)',
        errors: { 403: ['ERR_CHAT_OWNER_ONLY'], 404: ['ERR_NO_CHAT_FOUND', 'ERR_NO_USER_FOUND'] },
        params: IdParams,
        body: UpdateChatBody,
        response: { 200: ChatSchema, ...errorResponses(403, 404) },
      },
      config: CHAT,
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.updateChat(ctx, companyId, userId, request.params.id, request.body);
    },
  );

  app.delete(
    '/chats/:id',
    {
      schema: {
        summary: 'Delete a chat with its messages (its owner only)',
        errors: { 403: ['ERR_CHAT_OWNER_ONLY'], 404: ['ERR_NO_CHAT_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(403, 404) },
      },
      config: CHAT,
    },
    async (request, reply) => {
      const { companyId, userId } = caller(request);
      await chats.deleteChat(ctx, companyId, userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/chats/:id/messages',
    {
      schema: {
        summary: "A chat's messages, 30 a page from the latest (members only)",
        errors: { 404: ['ERR_NO_CHAT_FOUND'] },
        params: IdParams,
        querystring: MessagesQuery,
        response: { 200: MessagePageSchema, ...errorResponses(404) },
      },
      config: CHAT,
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.listMessages(ctx, companyId, userId, request.params.id, request.query.pageNumber);
    },
  );

  app.post(
    '/chats/:id/messages',
    {
      schema: {
        summary: 'Send a text message to a chat (members only)',
        errors: { 400: ['ERR_CHAT_MESSAGE_EMPTY'], 404: ['ERR_NO_CHAT_FOUND'] },
        params: IdParams,
        body: SendMessageBody,
        response: { 200: ChatMessageSchema, ...errorResponses(400, 404) },
      },
      config: CHAT,
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.sendMessage(ctx, companyId, userId, request.params.id, request.body.message);
    },
  );

  app.post(
    '/chats/:id/messages/media',
    {
      schema: {
        summary: 'Send a file, with an optional text, to a chat (members only)',
        errors: { 400: ['ERR_CHAT_MESSAGE_EMPTY'], 404: ['ERR_NO_CHAT_FOUND'] },
        multipart: Type.Object({
          file: Type.String({ format: 'binary', description: 'Any file up to 20 MB' }),
          message: Type.Optional(Type.String({ maxLength: MESSAGE_MAX_LENGTH })),
        }),
        params: IdParams,
        // multipart (`file`, `message`): parsed below; a JSON body is refused
        body: NoBody,
        response: { 200: ChatMessageSchema, ...errorResponses(400, 404, 413, 415) },
      },
      config: CHAT,
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      const chatId = request.params.id;
      // membership first: a non-member's upload is refused before a byte is stored
      await chats.memberChat(knex, companyId, chatId, userId);
      if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      let text = '';
      let stored: chats.StoredChatFile | undefined;
      try {
        for await (const part of request.parts({ limits: { fileSize: CHAT_FILE_MAX_BYTES, files: 1, fields: 2 } })) {
          if (part.type === 'field') {
            if (part.fieldname === 'message' && typeof part.value === 'string') text = part.value;
            continue;
          }
          if (part.fieldname !== 'file' || stored) {
            part.file.resume();
            continue;
          }
          const data = await part.toBuffer();
          if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE');
          const name =
            part.filename
              .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
              .trim()
              .slice(-100) || 'file';
          const type = (await fileTypeFromBuffer(data))?.mime ?? (part.mimetype || 'application/octet-stream');
          const key = `internal-chat/${chatId}/${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${name.replace(/\s+/g, '_')}`;
          await ctx.storage.put(companyId, key, data, { maxBytes: CHAT_FILE_MAX_BYTES });
          stored = { key, name, type: type.slice(0, 100) };
        }
        if (!stored) throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.file', message: 'is required' }] });
        if (text.length > MESSAGE_MAX_LENGTH || !isStorableText(text)) {
          throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.message', message: 'is not valid text' }] });
        }
        return await chats.sendMessage(ctx, companyId, userId, chatId, text, stored);
      } catch (error) {
        // a refused upload leaves nothing behind
        if (stored) await ctx.storage.delete(companyId, stored.key);
        throw error;
      }
    },
  );

  app.post(
    '/chats/:id/typing',
    {
      schema: {
        summary: "Tell the chat's other members that the caller is typing (members only)",
        errors: { 404: ['ERR_NO_CHAT_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: CHAT,
    },
    async (request, reply) => {
      const { companyId, userId } = caller(request);
      await chats.announceTyping(ctx, companyId, userId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/chats/:id/read',
    {
      schema: {
        summary: "Mark a chat read for the caller (userId is the caller's)",
        errors: { 403: ['ERR_CHAT_READ_OWN_ONLY'], 404: ['ERR_NO_CHAT_FOUND'] },
        params: IdParams,
        body: ReadBody,
        response: { 200: ChatSchema, ...errorResponses(403, 404) },
      },
      config: { ...CHAT, fixtureBody: (ids: Record<string, number | string>) => ({ userId: Number(ids.admin) }) },
    },
    async (request) => {
      const { companyId, userId } = caller(request);
      return chats.markRead(ctx, companyId, userId, request.params.id, request.body.userId);
    },
  );
});
