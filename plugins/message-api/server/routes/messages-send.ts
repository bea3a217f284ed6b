import { AppError, defineRoutes, type FastifyRequest, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import type { MessageApiContext } from '../config';
import { applyRateLimit, resolveCaller } from '../services/caller';
import { MAX_API_MEDIA_BYTES, MAX_API_MEDIA_FILES, type StoredApiMedia, storeApiMedia } from '../services/media';
import { API_NUMBER_PATTERN, type ApiCaller, type ApiSend, checkNumber, sendThroughApi } from '../services/send.service';

/** The longest text a send carries (the inbox's limit for an agent's message). */
const MAX_BODY = 65_536;

/** An optional id, as the documented forms send it: a number, a numeric text, empty or null (none). */
const OptionalId = Type.Optional(
  Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.String({ pattern: '^([0-9]{1,9})?$' }), Type.Null()]),
);
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')]));

const SendBody = StrictObject(
  {
    number: Type.String({ pattern: API_NUMBER_PATTERN, description: 'Digits only, country code first: 5511999999999' }),
    body: Type.String({ maxLength: MAX_BODY }),
    userId: OptionalId,
    queueId: OptionalId,
    sendSignature: Flag,
    closeTicket: Flag,
    whatsappId: OptionalId,
  },
  { title: 'MessageApiSendBody' },
);

const SendAnswer = Type.Object(
  {
    messageId: Type.Integer(),
    ticketId: Type.Integer(),
    contactId: Type.Integer(),
    whatsappId: Type.Integer(),
    ticketCreated: Type.Boolean(),
    ticketStatus: Type.String(),
    messages: Type.Array(
      Type.Object({
        id: Type.Integer(),
        status: Type.Union([Type.Literal('sent'), Type.Literal('failed'), Type.Literal('pending')]),
        error: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  },
  { title: 'MessageApiSendAnswer' },
);

const MULTIPART_FIELDS = new Set(['number', 'body', 'userId', 'queueId', 'sendSignature', 'closeTicket', 'whatsappId']);

function idOf(value: unknown, field: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${field}`, message: 'must be an id' }] });
  }
  return id;
}

function flagOf(value: unknown, field: string): boolean {
  if (value === undefined || value === null || value === '' || value === false || value === 'false') return false;
  if (value === true || value === 'true') return true;
  throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${field}`, message: 'must be true or false' }] });
}

function sendOf(fields: Record<string, unknown>, files: StoredApiMedia[]): ApiSend {
  const number = typeof fields.number === 'string' ? fields.number : '';
  checkNumber(number);
  const body = typeof fields.body === 'string' ? fields.body : '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL is what no text column takes
  if (body.length > MAX_BODY || /\u0000/.test(body)) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ field: 'body.body', message: 'must be text of at most 65536 characters' }],
    });
  }
  return {
    number,
    body,
    userId: idOf(fields.userId, 'userId'),
    queueId: idOf(fields.queueId, 'queueId'),
    sendSignature: flagOf(fields.sendSignature, 'sendSignature'),
    closeTicket: flagOf(fields.closeTicket, 'closeTicket'),
    whatsappId: idOf(fields.whatsappId, 'whatsappId'),
    files,
  };
}

/** The `Idempotency-Key` header: 1 to 255 visible characters, or none. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ field: 'headers.idempotency-key', message: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  return key;
}

/** Reads a multipart send: its fields and each `medias` file, checked by content and stored. */
async function readMultipart(ctx: MessageApiContext, request: FastifyRequest, companyId: number): Promise<ApiSend> {
  const fields: Record<string, string> = {};
  const files: StoredApiMedia[] = [];
  try {
    const parts = request.parts({
      limits: { files: MAX_API_MEDIA_FILES, fileSize: MAX_API_MEDIA_BYTES, fields: 20, fieldSize: MAX_BODY * 4, parts: 40 },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'medias') {
          part.file.resume();
          throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
        }
        files.push(await storeApiMedia(ctx, companyId, part.file, part.filename, part.mimetype));
      } else {
        if (!MULTIPART_FIELDS.has(part.fieldname)) {
          throw new AppError('ERR_VALIDATION', { details: [{ field: `body.${part.fieldname}`, message: 'is not allowed' }] });
        }
        fields[part.fieldname] = String(part.value);
      }
    }
    return sendOf(fields, files);
  } catch (error) {
    await Promise.all(files.map((file) => ctx.storage.delete(companyId, file.storageKey).catch(() => {})));
    throw error;
  }
}

/** Each request's caller, found before its body is read. */
const callers = new WeakMap<FastifyRequest, ApiCaller>();

/**
 * The message API (docs/product/automation.md "Message API"; docs/api.md "The message API"). The route is
 * public to the core's access rule: its credential is a connection's token (checked here) or an API key
 * with `messages:send` (checked by the core); the caller, the company's state, useExternalApi and the rate
 * limit are settled after the JSON body's validation and before any file is read or anything stored. Being a static path, it wins over the inbox's
 * `POST /messages/:id` (find-my-way matches static segments first).
 */
export default defineRoutes((app, pluginCtx) => {
  // the loader hands every route file its feature's context; this one's configuration is the message API's
  const ctx = pluginCtx as MessageApiContext;
  app.post(
    '/messages/send',
    {
      schema: {
        summary: 'Send a message to a number through the API (a connection token or an API key)',
        description:
          'Finds or creates the contact and its ticket, stores and delivers the message, and answers what was made. ' +
          'An `Idempotency-Key` header makes retries safe; `RateLimit-*` headers tell the rate limit.',
        errors: {
          400: ['ERR_MESSAGE_API_EMPTY'],
          401: ['ERR_MESSAGE_API_TOKEN_INVALID'],
          402: ['ERR_SUBSCRIPTION_EXPIRED'],
          403: ['ERR_COMPANY_INACTIVE', 'ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_NO_USER_FOUND', 'ERR_NO_QUEUE_FOUND', 'ERR_MESSAGE_API_NO_CONNECTION'],
          413: ['ERR_PAYLOAD_TOO_LARGE'],
          415: ['ERR_UNSUPPORTED_MEDIA_TYPE'],
          422: ['ERR_IDEMPOTENCY_KEY_REUSED'],
          429: ['ERR_MESSAGE_API_RATE_LIMITED'],
        },
        multipart: Type.Object({
          number: Type.String({ description: 'Digits only, country code first' }),
          body: Type.Optional(Type.String({ description: 'The text; with files, the first file’s caption' })),
          medias: Type.Array(Type.String({ format: 'binary', description: 'Files to send, one message each' })),
          userId: Type.Optional(Type.String()),
          queueId: Type.Optional(Type.String()),
          sendSignature: Type.Optional(Type.String({ enum: ['true', 'false'] })),
          closeTicket: Type.Optional(Type.String({ enum: ['true', 'false'] })),
          whatsappId: Type.Optional(Type.String()),
        }),
        security: [{ connectionToken: [] }],
        querystring: NoQuery,
        // multipart requests carry no JSON body (their parts are read in the handler)
        body: Type.Union([SendBody, Type.Null()]),
        response: { 200: SendAnswer, 201: SendAnswer },
      },
      config: { access: 'public', apiKeyScope: 'messages:send' },
      // after the JSON body's validation (a malformed request is a 400 whoever sends it), before any file is read
      preHandler: async (request, reply) => {
        const caller = await resolveCaller(ctx, request);
        await applyRateLimit(ctx, caller, reply);
        callers.set(request, caller);
      },
    },
    async (request, reply) => {
      const caller = callers.get(request) as ApiCaller;
      const key = idempotencyKeyOf(request);
      let send: ApiSend;
      if (request.isMultipart()) {
        send = await readMultipart(ctx, request, caller.companyId);
      } else {
        send = sendOf((request.body ?? {}) as Record<string, unknown>, []);
      }
      try {
        const { answer, replayed } = await sendThroughApi(ctx, caller, send, key);
        if (replayed) {
          reply.header('Idempotent-Replayed', 'true');
          // the files of a replayed request were stored for nothing
          await Promise.all(send.files.map((file) => ctx.storage.delete(caller.companyId, file.storageKey).catch(() => {})));
        }
        return reply.status(replayed ? 200 : 201).send(answer);
      } catch (error) {
        await Promise.all(send.files.map((file) => ctx.storage.delete(caller.companyId, file.storageKey).catch(() => {})));
        throw error;
      }
    },
  );
});
