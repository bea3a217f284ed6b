import {
  AppError,
  access,
  defineRoutes,
  type FastifyReply,
  type FastifyRequest,
  NoQuery,
  type PluginContext,
  type RouteErrors,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import { WEBCHAT_MAX_BODY, WEBCHAT_MAX_PAGE, type WebchatEventName } from '../../../shared/webchat';
import { WIDGET_KEY_PATTERN } from '../config';
import { hitLimit, MINUTE_MS } from '../limits';
import { liveRegistry, markPresent, PRESENCE_TTL_MS, publishLive } from '../live';
import { ACCEPTED_TYPES, checkedType, maxFileBytes, readMultipartMessage } from '../media';
import {
  listVisitorMessages,
  loadWidgetMessage,
  markVisitorDelivered,
  markVisitorRead,
  openTicketOf,
  requireBody,
  visitorMessageId,
} from '../messages';
import {
  bearerToken,
  contactIdentifier,
  openSession,
  requireSession,
  revokeSession,
  SESSION_TOKEN_PATTERN,
  sessionStillValid,
  type VisitorRow,
  visitorJson,
  type WidgetSession,
} from '../sessions';
import { admitOrigin, isOnline, resolveWidget, type WidgetConnection } from '../widgets';

const KeyParams = StrictObject({ widgetKey: Type.String({ pattern: WIDGET_KEY_PATTERN }) });
const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const Prechat = Type.Union([Type.Literal('off'), Type.Literal('optional'), Type.Literal('required')]);
const ConfigSchema = Type.Object({
  name: Type.String(),
  title: Type.String(),
  welcomeMessage: Type.String(),
  color: Type.String(),
  theme: Type.String(),
  position: Type.String(),
  prechat: Type.Object({ name: Prechat, email: Prechat, phone: Prechat }),
  online: Type.Boolean(),
  maxFileSize: Type.Integer(),
  acceptedTypes: Type.Array(Type.String()),
});
const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
const VisitorSchema = Type.Object({
  name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  identified: Type.Boolean(),
});
const MessageSchema = Type.Object({
  id: Type.String(),
  clientId: Nullable(Type.String()),
  author: Type.String(),
  authorName: Nullable(Type.String()),
  body: Type.String(),
  mediaType: Type.String(),
  mediaUrl: Nullable(Type.String()),
  fileName: Nullable(Type.String()),
  createdAt: Type.String(),
  isEdited: Type.Boolean(),
  isDeleted: Type.Boolean(),
  reactions: Type.Array(Type.Object({ emoji: Type.String(), mine: Type.Boolean() })),
  ack: Type.Integer(),
});
/** Every call names its widget: an unknown key is 404, an Origin the connection doesn't allow 403 (widgets.ts). */
const WIDGET_ERRORS = { 403: ['ERR_WEBCHAT_ORIGIN_REFUSED'], 404: ['ERR_WEBCHAT_NOT_FOUND'] } as const;
/** A visitor's call also needs a valid session of that connection (sessions.ts). */
const VISITOR_ERRORS = { ...WIDGET_ERRORS, 401: ['ERR_WEBCHAT_SESSION_INVALID'] } as const;
/** A visitor past the per-minute limits of limits.ts. */
const RATE_LIMITED = ['ERR_WEBCHAT_RATE_LIMITED'] as const;
/** The error answers of a route, one per status it lists (the core adds the statuses of its own hooks to the document). */
const errorBodies = (errors: RouteErrors) =>
  Object.fromEntries(Object.keys(errors).map((status) => [Number(status), ErrorBody])) as Record<number, typeof ErrorBody>;
const MessageJson = StrictObject({
  clientId: Type.String({ format: 'uuid' }),
  body: Type.String({ maxLength: WEBCHAT_MAX_BODY }),
});

const SESSION_ERRORS = {
  ...WIDGET_ERRORS,
  400: ['ERR_WEBCHAT_PRECHAT_REQUIRED', 'ERR_WEBCHAT_INVALID_EMAIL', 'ERR_WEBCHAT_INVALID_PHONE'],
  401: ['ERR_WEBCHAT_IDENTITY_INVALID', 'ERR_WEBCHAT_IDENTITY_EXPIRED'],
  429: RATE_LIMITED,
} as const;
/**
 * A visitor's message (media.ts, messages.ts): a stopped connection takes none (409), a file past the
 * company's size is 413 and one of a type not accepted 415; any other size or type the parser refuses is
 * the core's ERR_PAYLOAD_TOO_LARGE or ERR_UNSUPPORTED_MEDIA_TYPE.
 */
const SEND_ERRORS = {
  ...VISITOR_ERRORS,
  400: ['ERR_WEBCHAT_INVALID_MESSAGE'],
  409: ['ERR_WEBCHAT_OFFLINE'],
  413: ['ERR_WEBCHAT_TOO_LARGE'],
  415: ['ERR_WEBCHAT_TYPE_REFUSED'],
  429: RATE_LIMITED,
} as const;
/** Typing notices and read receipts: a visitor's call, within its per-minute limit. */
const SIGNAL_ERRORS = { ...VISITOR_ERRORS, 429: RATE_LIMITED } as const;

/** Events a visitor may send per minute besides messages (typing notices, read receipts). */
const SIGNALS_PER_MINUTE = 120;
/** Keep-alive comments; each also refreshes the visitor's presence (the "delivered" ack). */
const STREAM_PING_MS = 25_000;
/**
 * Every this many keep-alives the stream checks its session in the database. Revocations (DELETE
 * sessions, a removed connection) reach open streams at once through the broadcast; this catches the
 * rest (a lost broadcast, an expiry) without a query per stream every 25 s.
 */
const SESSION_CHECK_EVERY = 8;
/** A stream is closed after this long (EventSource reconnects by itself; the session is checked again). */
const STREAM_LIFE_MS = 30 * 60_000;
/** Paths of the widget's API: each answers the browser's CORS preflight. */
const PATHS = ['config', 'sessions', 'messages', 'typing', 'read', 'events'] as const;

/**
 * The widget's public API (plugins/channels/shared/webchat.ts; docs/channels/webchat.md): no agent
 * session — the widget key names the connection and its company, the Origin must be one it allows, and a
 * visitor's session token names the one visitor every call may see.
 */
/** A preflight carries the query string of the call it precedes (`messages?before=…&limit=…`). */
const PreflightQuery = Type.Object({}, { additionalProperties: true, description: 'The query of the call it precedes' });

export default defineRoutes((app, ctx) => {
  async function admit(widgetKey: string, request: FastifyRequest, reply: FastifyReply): Promise<WidgetConnection> {
    const widget = await resolveWidget(ctx, widgetKey);
    admitOrigin(widget, request, reply);
    return widget;
  }

  async function visitorCall(widgetKey: string, request: FastifyRequest, reply: FastifyReply) {
    const widget = await admit(widgetKey, request, reply);
    const session = await requireSession(ctx, widget, bearerToken(request));
    return { widget, session };
  }

  for (const path of PATHS) {
    app.options(
      `/webchat/:widgetKey/${path}`,
      {
        schema: {
          params: KeyParams,
          querystring: PreflightQuery,
          response: { 204: Type.Null(), 403: ErrorBody, 404: ErrorBody },
        },
        config: access.public,
      },
      async (request, reply) => {
        await admit(request.params.widgetKey, request, reply);
        return reply
          .status(204)
          .header('access-control-allow-methods', 'GET, POST, DELETE')
          .header('access-control-allow-headers', 'authorization, content-type')
          .header('access-control-max-age', '600')
          .send(null);
      },
    );
  }

  app.get(
    '/webchat/:widgetKey/config',
    {
      schema: {
        summary: "Widget: get the chat's settings",
        errors: WIDGET_ERRORS,
        params: KeyParams,
        querystring: NoQuery,
        response: { 200: ConfigSchema, ...errorBodies(WIDGET_ERRORS) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const widget = await admit(request.params.widgetKey, request, reply);
      const { config } = widget;
      return {
        name: widget.name,
        title: config.title || widget.name,
        welcomeMessage: config.welcomeMessage,
        color: config.color,
        theme: config.theme,
        position: config.position,
        prechat: config.prechat,
        online: isOnline(widget),
        maxFileSize: await maxFileBytes(ctx, widget.companyId),
        acceptedTypes: ACCEPTED_TYPES,
      };
    },
  );

  app.post(
    '/webchat/:widgetKey/sessions',
    {
      schema: {
        summary: 'Widget: start or resume a visitor session',
        // a token that names no valid session starts a new one (no 401); the site's identity token can be
        // forged or expired; new visitors are counted per address (sessions.ts)
        errors: SESSION_ERRORS,
        params: KeyParams,
        body: StrictObject({
          sessionToken: Type.Optional(Type.String({ maxLength: 100 })),
          identity: Type.Optional(Type.String({ minLength: 1, maxLength: 4_096 })),
          name: Type.Optional(Type.String({ maxLength: 120 })),
          email: Type.Optional(Type.String({ maxLength: 255 })),
          phone: Type.Optional(Type.String({ maxLength: 40 })),
          locale: Type.Optional(Type.String({ maxLength: 35 })),
        }),
        response: {
          200: Type.Object({ sessionToken: Type.String(), visitor: VisitorSchema }),
          201: Type.Object({ sessionToken: Type.String(), visitor: VisitorSchema }),
          ...errorBodies(SESSION_ERRORS),
        },
      },
      config: access.public,
    },
    async (request, reply) => {
      const widget = await admit(request.params.widgetKey, request, reply);
      const opened = await openSession(ctx, widget, request.body, request.ip);
      return reply
        .status(opened.created ? 201 : 200)
        .send({ sessionToken: opened.sessionToken, visitor: visitorJson(opened.visitor) });
    },
  );

  app.delete(
    '/webchat/:widgetKey/sessions',
    {
      schema: {
        summary: 'Widget: end the visitor session',
        errors: VISITOR_ERRORS,
        params: KeyParams,
        querystring: NoQuery,
        response: { 204: Type.Null(), ...errorBodies(VISITOR_ERRORS) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const { widget, session } = await visitorCall(request.params.widgetKey, request, reply);
      await revokeSession(ctx, session.sessionId);
      await publishLive(ctx, {
        visitorIds: [session.visitor.id],
        whatsappId: widget.id,
        sessionId: session.sessionId,
        event: 'ended',
        data: {},
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/webchat/:widgetKey/messages',
    {
      schema: {
        summary: "Widget: list the conversation's messages",
        errors: VISITOR_ERRORS,
        params: KeyParams,
        querystring: StrictObject({
          before: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,17}$' })),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: WEBCHAT_MAX_PAGE })),
        }),
        response: {
          200: Type.Object({ messages: Type.Array(MessageSchema), hasMore: Type.Boolean() }),
          ...errorBodies(VISITOR_ERRORS),
        },
      },
      config: access.public,
    },
    async (request, reply) => {
      const { widget, session } = await visitorCall(request.params.widgetKey, request, reply);
      return listVisitorMessages(ctx, widget, session.visitor, request.query.before, request.query.limit ?? 30);
    },
  );

  app.post(
    '/webchat/:widgetKey/messages',
    {
      schema: {
        summary: 'Widget: send a message (JSON or multipart with a file)',
        errors: SEND_ERRORS,
        multipart: Type.Object({
          clientId: Type.String({ format: 'uuid' }),
          body: Type.Optional(Type.String()),
          file: Type.Optional(Type.String({ format: 'binary', description: 'The file' })),
        }),
        params: KeyParams,
        // JSON, or multipart (which leaves the JSON body empty: its fields are read from the parts)
        body: Type.Union([MessageJson, Type.Null()]),
        response: { 201: MessageSchema, ...errorBodies(SEND_ERRORS) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const { widget, session } = await visitorCall(request.params.widgetKey, request, reply);
      if (!isOnline(widget)) throw new AppError('ERR_WEBCHAT_OFFLINE');
      await hitLimit(ctx, `msg:${session.visitor.id}`, widget.config.messagesPerMinute, MINUTE_MS);
      let clientId: string;
      let body: string;
      let media: { data: Buffer; mimetype: string; fileName: string; mediaType: string } | null = null;
      if (request.isMultipart()) {
        const parts = await readMultipartMessage(request, await maxFileBytes(ctx, widget.companyId));
        if (!parts.clientId || !UUID_RE.test(parts.clientId)) {
          throw new AppError('ERR_WEBCHAT_INVALID_MESSAGE', { details: [{ field: 'body.clientId', message: 'must be a uuid' }] });
        }
        if ((parts.body ?? '').length > WEBCHAT_MAX_BODY) {
          throw new AppError('ERR_WEBCHAT_INVALID_MESSAGE', {
            details: [{ field: 'body.body', message: `must have at most ${WEBCHAT_MAX_BODY} characters` }],
          });
        }
        clientId = parts.clientId;
        body = requireBody(parts.body, parts.file !== null);
        if (parts.file) {
          const type = await checkedType(parts.file.data, parts.file.fileName, parts.file.declared);
          media = { data: parts.file.data, mimetype: type.mime, fileName: parts.file.fileName, mediaType: type.mediaType };
        }
      } else {
        if (!request.body)
          throw new AppError('ERR_WEBCHAT_INVALID_MESSAGE', { details: [{ field: 'body', message: 'is required' }] });
        clientId = request.body.clientId;
        body = requireBody(request.body.body, false);
      }
      const message = await receiveVisitorMessage(ctx, widget, session.visitor, clientId.toLowerCase(), body, media);
      // the visitor's other tabs (and devices, for an identified visitor) show it at once
      await publishLive(ctx, { visitorIds: [session.visitor.id], whatsappId: widget.id, event: 'message', data: message });
      return reply.status(201).send(message);
    },
  );

  app.post(
    '/webchat/:widgetKey/typing',
    {
      schema: {
        summary: 'Widget: tell the agent the visitor is typing',
        errors: SIGNAL_ERRORS,
        params: KeyParams,
        body: StrictObject({ typing: Type.Boolean() }),
        response: { 204: Type.Null(), ...errorBodies(SIGNAL_ERRORS) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const { widget, session } = await visitorCall(request.params.widgetKey, request, reply);
      await hitLimit(ctx, `signal:${session.visitor.id}`, SIGNALS_PER_MINUTE, MINUTE_MS);
      const ticketId = await openTicketOf(ctx, widget, session.visitor);
      if (ticketId !== null) {
        // the agents who have the ticket open (its chat box room: the inbox decides who may join it)
        ctx.realtime.emit(
          widget.companyId,
          `company-${widget.companyId}-webchatTyping`,
          { ticketId, typing: request.body.typing, name: session.visitor.name },
          { rooms: `chatBox:${ticketId}` },
        );
      }
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webchat/:widgetKey/read',
    {
      schema: {
        summary: "Widget: mark the agent's messages read",
        errors: SIGNAL_ERRORS,
        params: KeyParams,
        body: StrictObject({ upToId: Type.String({ pattern: '^[1-9][0-9]{0,17}$' }) }),
        response: { 204: Type.Null(), ...errorBodies(SIGNAL_ERRORS) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const { widget, session } = await visitorCall(request.params.widgetKey, request, reply);
      await hitLimit(ctx, `signal:${session.visitor.id}`, SIGNALS_PER_MINUTE, MINUTE_MS);
      await markVisitorRead(ctx, widget, session.visitor, request.body.upToId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/webchat/:widgetKey/events',
    {
      schema: {
        summary: 'Widget: live events (server-sent events)',
        errors: VISITOR_ERRORS,
        params: KeyParams,
        querystring: StrictObject({ sessionToken: Type.String({ pattern: SESSION_TOKEN_PATTERN }) }),
        response: { 200: Type.String(), ...errorBodies(VISITOR_ERRORS) },
      },
      config: access.public,
    },
    async (request, reply) => {
      const widget = await admit(request.params.widgetKey, request, reply);
      const session = await requireSession(ctx, widget, request.query.sessionToken);
      openStream(ctx, reply, widget, session);
    },
  );
});

/**
 * Hands a visitor's message to the inbox (contact, ticket, queues, greeting, chatbot: as any channel). The
 * channel id is built from the visitor and the widget's clientId, so a retry stores nothing twice.
 */
async function receiveVisitorMessage(
  ctx: PluginContext,
  widget: WidgetConnection,
  visitor: VisitorRow,
  clientId: string,
  body: string,
  media: { data: Buffer; mimetype: string; fileName: string; mediaType: string } | null,
) {
  // the stored time, also in the answer: the widget orders the visitor's message before the bot's reply
  // that the same receive produced
  const sentAt = new Date();
  const result = await ctx.services.use('inbox').receive({
    companyId: widget.companyId,
    whatsappId: widget.id,
    channel: 'webchat',
    contact: {
      identifiers: [contactIdentifier(visitor)],
      name: visitor.name ?? `Visitante ${visitor.publicId.slice(0, 6)}`,
      email: visitor.email,
      number: visitor.phone ? visitor.phone.replace(/\D/g, '') || null : null,
    },
    message: {
      id: visitorMessageId(visitor.id, clientId),
      body,
      timestamp: sentAt,
      ...(media
        ? { mediaType: media.mediaType, media: { data: media.data, mimetype: media.mimetype, fileName: media.fileName } }
        : {}),
    },
  });
  if (visitor.contactId !== result.contactId) {
    await ctx.db.knex('webchatVisitors').where({ id: visitor.id }).update({ contactId: result.contactId, updatedAt: new Date() });
    visitor.contactId = result.contactId;
  }
  if (result.created && !media) {
    // what was just stored, without reading it back (the hot path of every visitor message)
    return {
      id: String(result.messageId),
      clientId,
      author: 'visitor' as const,
      authorName: null,
      body,
      mediaType: 'chat',
      mediaUrl: null,
      fileName: null,
      createdAt: sentAt.toISOString(),
      isEdited: false,
      isDeleted: false,
      reactions: [],
      ack: 2,
    };
  }
  const message = await loadWidgetMessage(ctx, widget.companyId, result.messageId);
  if (!message) throw new Error(`webchat: message ${result.messageId} vanished after receive`);
  return message;
}

/**
 * The visitor's server-sent event stream: the company's messages, updates, agent typing, the connection's
 * status and `ended` when the session is revoked. Opening it makes pending company messages delivered.
 */
function openStream(ctx: PluginContext, reply: FastifyReply, widget: WidgetConnection, session: WidgetSession): void {
  reply.hijack();
  const raw = reply.raw;
  const origin = reply.getHeader('access-control-allow-origin');
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    vary: 'Origin',
    ...(origin ? { 'access-control-allow-origin': String(origin) } : {}),
  });
  raw.write(`retry: 3000\nevent: status\ndata: ${JSON.stringify({ online: isOnline(widget) })}\n\n`);
  let closed = false;
  const visitorId = session.visitor.id;
  const stream = {
    visitorId,
    sessionId: session.sessionId,
    whatsappId: widget.id,
    write(event: WebchatEventName, data: unknown) {
      if (!closed) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end: () => close(),
  };
  const remove = liveRegistry(ctx).add(stream);
  void markPresent(ctx, visitorId)
    .then(() => markVisitorDelivered(ctx, widget, session.visitor))
    .catch((error) => ctx.log.warn({ err: error }, 'webchat stream open bookkeeping failed'));
  let pings = 0;
  // this stream's first check after a random part of the period: streams opened together (a page of
  // visitors, a restart) don't all ping, and query, at the same moment
  const periodMs = Math.min(STREAM_PING_MS, PRESENCE_TTL_MS / 2);
  let ping: ReturnType<typeof setInterval> | null = null;
  const check = async () => {
    try {
      pings += 1;
      if (pings % SESSION_CHECK_EVERY === 0 && !(await sessionStillValid(ctx, session.sessionId))) {
        stream.write('ended', {});
        close();
        return;
      }
      if (!closed) raw.write(': keep-alive\n\n');
      await markPresent(ctx, visitorId);
    } catch (error) {
      ctx.log.warn({ err: error }, 'webchat stream check failed');
    }
  };
  const first = setTimeout(
    () => {
      void check();
      if (!closed) ping = setInterval(check, periodMs);
    },
    Math.floor(Math.random() * periodMs),
  );
  // the life is jittered too: the reconnections of streams opened together spread out
  const life = setTimeout(() => close(), STREAM_LIFE_MS - Math.floor(Math.random() * STREAM_LIFE_MS * 0.2));
  function close() {
    if (closed) return;
    closed = true;
    remove();
    clearTimeout(first);
    if (ping) clearInterval(ping);
    clearTimeout(life);
    raw.end();
  }
  // the response's close is the connection's (the request's may come as soon as its body was read)
  raw.on('close', close);
}
