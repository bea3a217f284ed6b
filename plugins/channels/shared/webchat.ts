/**
 * The webchat widget's public protocol (docs/channels/webchat.md): what the server (plugins/channels/server/webchat) answers
 * and what the widget (plugins/channels/widget) sends. Every route is under the API prefix `/api`, public
 * (no agent login). The session token travels as `Authorization: Bearer <sessionToken>`, except on the
 * event stream (EventSource can't send headers), which takes `?sessionToken=`.
 *
 * CORS: the server answers the request's Origin when the connection allows it
 * (`Access-Control-Allow-Origin: <origin>`, `Vary: Origin`, preflight OPTIONS) and refuses others with
 * 403 ERR_WEBCHAT_ORIGIN_REFUSED. A connection with no allowed origins accepts any.
 *
 * What a client author may not expect, newest first:
 * - Added `DELETE /webchat/:widgetKey/sessions` (bearer) → 204: ends that session (for `setUser(null)`
 *   or a "forget me" button); its streams get `ended`.
 * - ERR_WEBCHAT_OFFLINE is 409 (not 503: the platform answers no 5xx on purpose).
 * - Pre-chat errors carry `details: [{ field: 'body.email', message }]` (the platform's validation shape).
 */

/** Whether a pre-chat field is asked. */
export type WebchatPrechatMode = 'off' | 'optional' | 'required';

export interface WebchatPrechat {
  name: WebchatPrechatMode;
  email: WebchatPrechatMode;
  phone: WebchatPrechatMode;
}

export type WebchatTheme = 'light' | 'dark' | 'auto';
export type WebchatPosition = 'right' | 'left';

/**
 * A webchat connection's `channelConfig` (docs/channels/webchat.md): the public widget key, the secret
 * the site signs identity tokens with, the origins allowed to embed it, the pre-chat form, its look and
 * its abuse limits. What the connection editor edits; never sent to a widget.
 */
export interface WebchatChannelConfig {
  widgetKey: string;
  identitySecret: string;
  /** Exact origins (`https://shop.example:8443`); empty: any site may embed the widget. */
  allowedOrigins: string[];
  prechat: WebchatPrechat;
  color: string;
  theme: WebchatTheme;
  position: WebchatPosition;
  title: string;
  welcomeMessage: string;
  newConversationsPerIpPerHour: number;
  messagesPerMinute: number;
}

/** `GET /webchat/:widgetKey/config` */
export interface WebchatConfig {
  /** The connection's name. */
  name: string;
  title: string;
  welcomeMessage: string;
  /** `#RRGGBB` */
  color: string;
  theme: WebchatTheme;
  position: WebchatPosition;
  prechat: WebchatPrechat;
  /** false: the connection is stopped; posting answers 409 ERR_WEBCHAT_OFFLINE; the widget shows offline. */
  online: boolean;
  /** Bytes; larger files answer 413 ERR_WEBCHAT_TOO_LARGE. */
  maxFileSize: number;
  /** Mime patterns (`image/*`, `application/pdf`, …), for the file input's `accept`. */
  acceptedTypes: string[];
}

/** `POST /webchat/:widgetKey/sessions` body. */
export interface WebchatSessionRequest {
  /** A token of an earlier session: resumes the same visitor when still valid. */
  sessionToken?: string;
  /**
   * An HS256 JWT the site signed with the connection's identitySecret: claims `sub` (required), `exp`
   * (required, at most 24 h ahead), optional `name`, `email`, `phone`. The visitor is then that site user
   * (same contact on every device).
   */
  identity?: string;
  name?: string;
  email?: string;
  phone?: string;
  /** pt | en | es | tr (or a BCP 47 tag starting with one). */
  locale?: string;
}

export interface WebchatVisitor {
  name: string | null;
  email: string | null;
  phone: string | null;
  identified: boolean;
}

/** `POST /webchat/:widgetKey/sessions` answer (201 new session, 200 resumed). */
export interface WebchatSessionResponse {
  sessionToken: string;
  visitor: WebchatVisitor;
}

export type WebchatAuthor = 'visitor' | 'agent' | 'bot';

/** A message's delivery state (the inbox's ack): 0 pending, 1 sent, 2 delivered, 3 read by agent side, 5 read. */
export type WebchatAck = number;

export interface WebchatReaction {
  emoji: string;
  /** true: the visitor's own reaction. */
  mine: boolean;
}

/** One message of the visitor's conversation (public messages only; private notes never appear). */
export interface WebchatMessage {
  /** The inbox message id (string). Used by `before` and `read.upToId`. */
  id: string;
  /** The visitor's clientId for messages they sent; null for the company's. */
  clientId: string | null;
  author: WebchatAuthor;
  /** The agent's display name (or the bot's); null for the visitor's messages. */
  authorName: string | null;
  body: string;
  /** `chat` for text; `image`, `video`, `audio`, `document` for media. */
  mediaType: string;
  /** A signed URL, valid for a while (fetch it again through `GET messages` when expired). */
  mediaUrl: string | null;
  fileName: string | null;
  /** ISO 8601. */
  createdAt: string;
  isEdited: boolean;
  isDeleted: boolean;
  reactions: WebchatReaction[];
  ack: WebchatAck;
}

/** `GET /webchat/:widgetKey/messages?before=<id>&limit=<n≤50>` answer (a page, oldest→newest). */
export interface WebchatMessagesPage {
  messages: WebchatMessage[];
  /** More, older messages exist before the first one. */
  hasMore: boolean;
}

/** `POST /webchat/:widgetKey/messages` JSON body (or multipart: fields `clientId`, `body?`, part `file`). */
export interface WebchatSendRequest {
  /** A uuid the widget makes: a retry with the same clientId returns the same message, never a duplicate. */
  clientId: string;
  body: string;
}

/** `POST /webchat/:widgetKey/typing` body → 204. */
export interface WebchatTypingRequest {
  typing: boolean;
}

/** `POST /webchat/:widgetKey/read` body → 204: the company's messages up to this one are read. */
export interface WebchatReadRequest {
  upToId: string;
}

/**
 * `GET /webchat/:widgetKey/events?sessionToken=…` (text/event-stream). Comments (`: keep-alive`) every
 * ~25 s; a `retry:` hint at the start.
 */
export interface WebchatEventMap {
  /**
   * A new message: from the company (agent or bot), or the visitor's own once stored (so that their other
   * tabs show it; the tab that sent it already has it by its id).
   */
  message: WebchatMessage;
  /** A message changed: edited, deleted, reactions, ack. */
  update: WebchatMessage;
  /** An agent typing. */
  typing: { typing: boolean; name: string | null };
  /** The connection went online/offline. */
  status: { online: boolean };
  /** The session was revoked (or the connection removed): drop the token, start over. */
  ended: Record<string, never>;
}

export type WebchatEventName = keyof WebchatEventMap;

/** Error codes the public API answers as `{ error: code, ... }`. */
export const WEBCHAT_ERROR_CODES = [
  'ERR_WEBCHAT_NOT_FOUND', // 404 unknown widget key
  'ERR_WEBCHAT_ORIGIN_REFUSED', // 403
  'ERR_WEBCHAT_SESSION_INVALID', // 401 missing/bad/revoked session token
  'ERR_WEBCHAT_IDENTITY_INVALID', // 401 forged identity token, or exp too far ahead / missing claims
  'ERR_WEBCHAT_IDENTITY_EXPIRED', // 401
  'ERR_WEBCHAT_PRECHAT_REQUIRED', // 400, with `details` (the missing fields)
  'ERR_WEBCHAT_INVALID_EMAIL', // 400
  'ERR_WEBCHAT_INVALID_PHONE', // 400
  'ERR_WEBCHAT_INVALID_MESSAGE', // 400 (no clientId, empty message, body > 4096 chars)
  'ERR_WEBCHAT_OFFLINE', // 409 the connection is stopped
  'ERR_WEBCHAT_RATE_LIMITED', // 429, with `retryAfter` (seconds) in the body and a Retry-After header
  'ERR_WEBCHAT_TOO_LARGE', // 413
  'ERR_WEBCHAT_TYPE_REFUSED', // 415
  'ERR_WEBCHAT_CONFIG_INVALID', // 400 (admin: a connection's channelConfig), with `details`
] as const;

export type WebchatErrorCode = (typeof WEBCHAT_ERROR_CODES)[number];

/** An error answer of the public API. */
export interface WebchatErrorBody {
  error: WebchatErrorCode | string;
  /** On ERR_WEBCHAT_RATE_LIMITED. */
  retryAfter?: number;
  /** On ERR_WEBCHAT_PRECHAT_REQUIRED (and ERR_VALIDATION): `field` is `body.name`, `body.email`, `body.phone`. */
  details?: Array<{ field: string; message: string }>;
}

/** The longest message body, in characters. */
export const WEBCHAT_MAX_BODY = 4096;
/** The largest page of `GET messages`. */
export const WEBCHAT_MAX_PAGE = 50;
