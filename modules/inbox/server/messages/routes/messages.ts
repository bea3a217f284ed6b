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
import { JSON_TEXT } from '../../json-sql';
import { TicketSchema } from '../../tickets/schemas';
import { readMultipartSend, type StoredMedia } from '../media-upload';
import {
  type AgentSend,
  countMyMessages,
  deleteMessage,
  editMessage,
  forwardMessage,
  listTicketMessages,
  type MessagePage,
  reactToMessage,
  requireOpenTicket,
  retryMessage,
  sendAgentMessage,
  visibleTicket,
} from '../message-actions.service';
import { MessageSchema } from '../schemas';

/** Longest text of one message (WhatsApp's own limit is 65,536 characters). */
const MAX_BODY = 65_536;

const PageQuery = StrictObject({
  pageNumber: Type.Optional(PageNumber),
  /** Sent by the documented client (a JSON array of queue ids); the history view it filters is not kept. */
  selectedQueues: Type.Optional(Type.String({ maxLength: 4_000 })),
});

const PageAnswer = Type.Object({
  messages: Type.Array(MessageSchema),
  ticket: TicketSchema,
  count: Type.Integer(),
  hasMore: Type.Boolean(),
});

const Flag = Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1 })]);

/** A JSON send; `fromMe`, `read` and `mediaUrl` are sent by the documented client and ignored. */
const SendJson = StrictObject({
  body: Type.Optional(Type.Union([Type.String({ maxLength: MAX_BODY }), Type.Null()])),
  quotedMsg: Type.Optional(Type.Union([Id, Type.Null()])),
  isPrivate: Type.Optional(Type.Boolean()),
  signMessage: Type.Optional(Type.Boolean()),
  vCard: Type.Optional(
    Type.Union([
      StrictObject({
        name: Type.String({ minLength: 1, maxLength: 250 }),
        number: Type.String({ pattern: '^\\+?[0-9 ()-]{8,50}$' }),
      }),
      Type.Null(),
    ]),
  ),
  fromMe: Type.Optional(Flag),
  read: Type.Optional(Flag),
  mediaUrl: Type.Optional(Type.String({ maxLength: 2_048 })),
});

/** JSON, or multipart (which leaves the JSON body empty: its fields are read from the parts). */
const SendBody = Type.Union([SendJson, Type.Null()]);

const MessageIdParams = StrictObject({ messageId: Id });

/** A multipart flag field: `true`/`1` are true. */
const truthy = (value: string | undefined): boolean => value === 'true' || value === '1';

export default defineRoutes((app, ctx) => {
  // `/messages/:ticketUuid`, `/messages/:ticketId` and `/messages/:id` of the contract share one router
  // node, which takes one parameter name: all are `:id` here (the ticket's uuid, the ticket, the message).
  app.get(
    '/messages/:id',
    {
      schema: {
        summary: "List a ticket's messages (newest page first)",
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ id: Type.String({ format: 'uuid' }) }),
        querystring: PageQuery,
        response: { 200: PageAnswer },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'ticketUuid' }, apiKeyScope: 'tickets:read' },
    },
    async (request, reply) => {
      const user = await ctx.access.sessionUser(request);
      const json = await listTicketMessages(ctx, user, request.params.id, request.query.pageNumber ?? 1);
      // Postgres built the answer in the schema's shape (services/json-sql.ts): a JSON string is sent as it is
      return reply.type(JSON_TEXT).send(json as unknown as MessagePage);
    },
  );

  app.post(
    '/messages/:id',
    {
      schema: {
        summary: 'Send a message on a ticket (JSON or multipart with media)',
        errors: { 400: ['ERR_EMPTY_MESSAGE', 'ERR_TICKET_NOT_OPEN'], 404: ['ERR_NO_TICKET_FOUND'] },
        multipart: Type.Object({
          medias: Type.Array(Type.String({ format: 'binary', description: 'Files to send, one message each' })),
          body: Type.Optional(Type.String({ description: 'The caption' })),
          isPrivate: Type.Optional(Type.String({ enum: ['true', 'false'] })),
          signMessage: Type.Optional(Type.String({ enum: ['true', 'false'] })),
          quotedMsg: Type.Optional(Type.String({ description: 'Id of the quoted message' })),
          fromMe: Type.Optional(Type.String()),
          read: Type.Optional(Type.String()),
        }),
        params: IdParams,
        body: SendBody,
        response: { 201: Type.Object({ messages: Type.Array(MessageSchema) }) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'ticket' }, apiKeyScope: 'messages:send' },
    },
    async (request, reply) => {
      const user = await ctx.access.sessionUser(request);
      const ticket = await visibleTicket(user, { id: request.params.id });
      // refuse before reading any file
      requireOpenTicket(ticket);
      let input: AgentSend;
      if (request.isMultipart()) {
        const { fields, files } = await readMultipartSend(request, ctx, user.companyId, ticket.id);
        try {
          input = multipartInput(fields, files);
          const messages = await sendAgentMessage(ctx, user, ticket, input);
          return reply.status(201).send({ messages });
        } catch (error) {
          await Promise.all(files.map((file) => ctx.storage.delete(user.companyId, file.key).catch(() => {})));
          throw error;
        }
      }
      const body = request.body ?? {};
      input = {
        body: body.body ?? '',
        isPrivate: body.isPrivate === true,
        signMessage: body.signMessage === true,
        quotedMsgId: body.quotedMsg ?? null,
        vCard: body.vCard ?? null,
        files: [],
      };
      const messages = await sendAgentMessage(ctx, user, ticket, input);
      return reply.status(201).send({ messages });
    },
  );

  app.post(
    '/messages/edit/:messageId',
    {
      schema: {
        summary: 'Edit a sent message (within 15 minutes)',
        errors: {
          400: ['ERR_EDIT_WINDOW_EXPIRED', 'ERR_EMPTY_MESSAGE', 'ERR_SENDING_WAPP_MSG', 'ERR_WAPP_NOT_INITIALIZED'],
          403: ['ERR_NO_PERMISSION'],
          404: ['ERR_NO_MESSAGE_FOUND'],
        },
        params: MessageIdParams,
        body: StrictObject({ body: Type.String({ minLength: 1, maxLength: MAX_BODY }) }),
        response: { 200: MessageSchema },
      },
      config: { ...access.authenticated },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return editMessage(ctx, user, request.params.messageId, request.body.body);
    },
  );

  app.delete(
    '/messages/:id',
    {
      schema: {
        summary: 'Delete a sent message',
        errors: {
          400: ['ERR_DELETE_WAPP_MSG', 'ERR_WAPP_NOT_INITIALIZED'],
          403: ['ERR_NO_PERMISSION'],
          404: ['ERR_NO_MESSAGE_FOUND'],
        },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: MessageSchema },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'message' } },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return deleteMessage(ctx, user, request.params.id);
    },
  );

  app.post(
    '/messages/:id/reactions',
    {
      schema: {
        summary: 'React to a message',
        errors: { 400: ['ERR_SENDING_WAPP_MSG', 'ERR_WAPP_NOT_INITIALIZED'], 404: ['ERR_NO_MESSAGE_FOUND'] },
        params: IdParams,
        body: StrictObject({ type: Type.String({ maxLength: 32 }) }),
        response: { 200: MessageSchema },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'message' } },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return reactToMessage(ctx, user, request.params.id, request.body.type);
    },
  );

  app.post(
    '/messages/:id/retry',
    {
      schema: {
        summary: 'Send a failed message again',
        errors: { 400: ['ERR_MESSAGE_NOT_RETRYABLE'], 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_MESSAGE_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 200: MessageSchema },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'message' } },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return retryMessage(ctx, user, request.params.id);
    },
  );

  app.post(
    '/message/forward',
    {
      schema: {
        summary: 'Forward messages to other contacts',
        errors: { 403: ['ERR_NO_PERMISSION'], 404: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_MESSAGE_FOUND'] },
        body: StrictObject({ messageId: Id, contactId: Id, signMessage: Type.Optional(Type.Boolean()) }),
        response: { 201: MessageSchema },
      },
      config: { ...access.authenticated },
    },
    async (request, reply) => {
      const user = await ctx.access.sessionUser(request);
      const message = await forwardMessage(ctx, user, {
        messageId: request.body.messageId,
        contactId: request.body.contactId,
        signMessage: request.body.signMessage === true,
      });
      return reply.status(201).send(message);
    },
  );

  app.get(
    '/messages-allMe',
    {
      schema: {
        summary: 'Count messages by the session user in a period',
        errors: {},
        querystring: StrictObject({
          fromMe: Type.Optional(Type.Boolean()),
          dateStart: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })])),
          dateEnd: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })])),
        }),
        response: { 200: Type.Object({ count: Type.Array(Type.Object({ count: Type.Integer() })) }) },
      },
      config: { ...access.authenticated },
    },
    async (request) => {
      const user = await ctx.access.sessionUser(request);
      return countMyMessages(ctx, user, request.query);
    },
  );
});

/** The send a multipart request describes (its fields as text, its files already stored). */
function multipartInput(fields: Record<string, string>, files: StoredMedia[]): AgentSend {
  const body = fields.body ?? '';
  if (body.length > MAX_BODY) {
    throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.body', message: `must be at most ${MAX_BODY}` }] });
  }
  let quotedMsgId: number | null = null;
  if (fields.quotedMsg !== undefined && fields.quotedMsg !== '' && fields.quotedMsg !== 'null') {
    const id = Number(fields.quotedMsg);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
      throw new AppError('ERR_VALIDATION', { details: [{ field: 'body.quotedMsg', message: 'must be a message id' }] });
    }
    quotedMsgId = id;
  }
  return {
    body,
    isPrivate: truthy(fields.isPrivate),
    signMessage: truthy(fields.signMessage),
    quotedMsgId,
    vCard: null,
    files: files.map((file) => ({ key: file.key, name: file.name, mimetype: file.mimetype, mediaType: file.mediaType })),
  };
}
