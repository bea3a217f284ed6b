import type { Draft } from '@reduxjs/toolkit';
import type { Socket } from 'socket.io-client';
import { CLIENT_EVENTS, companyEvent, companyNamespace } from '../shared/realtime';
import type { SessionState } from './session-slice';

/** docs/product/tickets-and-inbox.md#constants-and-limits: the socket reconnects 1000 ms after a drop, without limit. */
export const SOCKET_RECONNECT_DELAY_MS = 1_000;
/** docs/product/tickets-and-inbox.md#constants-and-limits: the user status ping (`userStatus`) every five minutes. */
export const USER_STATUS_INTERVAL_MS = 300_000;

/** A listener of one socket event. */
export type SocketEventHandler<Payload = unknown> = (payload: Payload) => void;

/** Options of `connectCompanySocket`. */
export interface CompanySocketOptions {
  companyId: number;
  userId: number;
  /** Reads the current access token (read again on every reconnection, so refreshed tokens are used). */
  readToken(): string | null;
  /** Renews the access token when the handshake says it expired; resolves false when that failed. */
  renewToken(): Promise<boolean>;
  /** The server refused the session itself (revoked, or signed out elsewhere). */
  onSessionRefused(code: string): void;
  /** The server's origin (the page's own by default). */
  origin?: string;
}

interface Connection {
  socket: Socket;
  companyId: number;
  userId: number;
  statusTimer: ReturnType<typeof setInterval>;
  retryTimer: ReturnType<typeof setTimeout> | null;
}

const handlers = new Map<string, Set<SocketEventHandler>>();
const joinedRooms = new Map<string, { joinEvent: string; argument: unknown }>();
/** Who reads again after the socket comes back from a drop (`subscribeSocketResync`). */
const resyncListeners = new Set<() => void>();
let connection: Connection | null = null;
let connectionAttempt = 0;

/** The socket of the session's company, or null before `connectCompanySocket` (or after disconnecting). */
export function getCompanySocket(): Socket | null {
  return connection?.socket ?? null;
}

/**
 * Opens the company's socket: namespace `/<companyId>`, the token in the handshake's `auth`, the user
 * id in its query; reconnects 1000 ms after any drop without limit, renews an expired token before
 * reconnecting, and pings `userStatus` every five minutes. Opening it again for the same user and company
 * keeps the open socket. socket.io-client is loaded on first use, so the login page never downloads it.
 */
export async function connectCompanySocket(options: CompanySocketOptions): Promise<Socket> {
  if (connection && connection.companyId === options.companyId && connection.userId === options.userId) {
    return connection.socket;
  }
  disconnectCompanySocket();
  const attempt = ++connectionAttempt;
  const { io } = await import('socket.io-client');
  if (attempt !== connectionAttempt && connection) return connection.socket;
  const origin = options.origin ?? globalThis.location.origin;
  const socket = io(`${origin}${companyNamespace(options.companyId)}`, {
    auth: (send) => send({ token: options.readToken() }),
    query: { userId: String(options.userId) },
    reconnection: true,
    reconnectionAttempts: Number.POSITIVE_INFINITY,
    reconnectionDelay: SOCKET_RECONNECT_DELAY_MS,
    reconnectionDelayMax: SOCKET_RECONNECT_DELAY_MS,
    randomizationFactor: 0,
  });
  const current: Connection = {
    socket,
    companyId: options.companyId,
    userId: options.userId,
    statusTimer: setInterval(() => {
      if (socket.connected) socket.emit(CLIENT_EVENTS.userStatus);
    }, USER_STATUS_INTERVAL_MS),
    retryTimer: null,
  };
  connection = current;

  socket.onAny((event: string, payload: unknown) => {
    for (const handler of handlers.get(event) ?? []) handler(payload);
  });
  let connectedBefore = false;
  socket.on('connect', () => {
    // rooms live on the server's side of one connection: join them again after every reconnection
    for (const { joinEvent, argument } of joinedRooms.values()) socket.emit(joinEvent, argument);
    // back after a drop (a network blip, a server restarting): whatever happened meanwhile was never heard,
    // so what is on screen reads again — after the rooms are joined, so nothing falls in between
    if (connectedBefore) for (const listener of [...resyncListeners]) listener();
    connectedBefore = true;
  });
  socket.on('disconnect', (reason) => {
    // socket.io retries dropped transports itself, but not a disconnection the server chose: retry that too
    if (reason !== 'io server disconnect') return;
    current.retryTimer = setTimeout(() => {
      if (connection === current) socket.connect();
    }, SOCKET_RECONNECT_DELAY_MS);
  });
  socket.on('connect_error', (error: Error & { data?: { error?: string } }) => {
    // a dropped transport is retried by socket.io itself; a refused handshake is ours to handle
    if (socket.active) return;
    const code = error.data?.error ?? error.message;
    const retry = () => {
      current.retryTimer = setTimeout(() => {
        if (connection === current) socket.connect();
      }, SOCKET_RECONNECT_DELAY_MS);
    };
    // an expired token is renewed; for a company that expired or was deactivated, the refresh's answer
    // ends the session with its reason (the subscription's due date, for /financeiro-aberto)
    if (code === 'ERR_TOKEN_EXPIRED' || code === 'ERR_SUBSCRIPTION_EXPIRED' || code === 'ERR_COMPANY_INACTIVE') {
      void options.renewToken().then((renewed) => {
        if (connection !== current) return;
        if (renewed) socket.connect();
        else options.onSessionRefused(code);
      });
    } else if (code === 'ERR_SESSION_EXPIRED' || code === 'ERR_UNAUTHENTICATED' || code === 'ERR_TOKEN_INVALID') {
      options.onSessionRefused(code);
    } else {
      retry();
    }
  });
  return socket;
}

/** Closes the company socket (logout, session end) and forgets its room joins. */
export function disconnectCompanySocket(): void {
  connectionAttempt++;
  if (!connection) return;
  clearInterval(connection.statusTimer);
  if (connection.retryTimer) clearTimeout(connection.retryTimer);
  connection.socket.removeAllListeners();
  connection.socket.disconnect();
  connection = null;
  joinedRooms.clear();
}

/**
 * Calls `listener` each time the company socket connects again after a drop: the events sent meanwhile were
 * lost, so live data should be read again (the SDK's store refetches every query on screen; a feature with
 * state of its own reloads it here). Not called for the first connection. Returns the function that stops.
 */
export function subscribeSocketResync(listener: () => void): () => void {
  resyncListeners.add(listener);
  return () => {
    resyncListeners.delete(listener);
  };
}

/**
 * Listens to one socket event by its full name (`company-3-ticket`, `company-announcement`). Works before
 * the socket exists and across reconnections. Returns the function that stops listening.
 */
export function subscribeSocketEvent<Payload = unknown>(event: string, handler: SocketEventHandler<Payload>): () => void {
  const listeners = handlers.get(event) ?? new Set<SocketEventHandler>();
  listeners.add(handler as SocketEventHandler);
  handlers.set(event, listeners);
  return () => {
    listeners.delete(handler as SocketEventHandler);
    if (listeners.size === 0) handlers.delete(event);
  };
}

/** Emits a client event (`joinTickets`, …) on the company socket, when there is one. */
export function emitSocketEvent(event: string, ...args: unknown[]): void {
  connection?.socket.emit(event, ...args);
}

/**
 * Joins a room through the documented client events (`joinTickets`/`leaveTickets` with a status,
 * `joinChatBox`/`joinChatBoxLeave` with a ticket id, `joinNotification`/`leaveNotification`), and joins
 * it again after every reconnection. Returns the function that leaves it.
 */
export function joinSocketRoom(joinEvent: string, leaveEvent: string, argument?: unknown): () => void {
  const key = `${joinEvent}:${JSON.stringify(argument ?? null)}`;
  joinedRooms.set(key, { joinEvent, argument });
  if (connection?.socket.connected) connection.socket.emit(joinEvent, argument);
  return () => {
    joinedRooms.delete(key);
    connection?.socket.emit(leaveEvent, argument);
  };
}

/** Which socket event a cache entry follows: a company channel (`ticket` → `company-{id}-ticket`) or a full name. */
export type SocketEventRef = { channel: string } | { event: string };

/** What `onCacheEntryAdded` hands to an endpoint, as far as `streamSocketEvent` needs it. */
export interface CacheEntryLifecycle<Data> {
  cacheDataLoaded: Promise<unknown>;
  cacheEntryRemoved: Promise<unknown>;
  updateCachedData(recipe: (draft: Draft<Data>) => void): unknown;
  getState(): unknown;
}

/**
 * Keeps an RTK Query cache entry live: from inside `onCacheEntryAdded`, applies every payload of a socket
 * event to the cached data until the entry is removed. Socket events patch the one cache, never a
 * second store.
 *
 * @example
 * api.injectEndpoints({ endpoints: (build) => ({
 *   listNotes: build.query<Note[], void>({
 *     query: () => '/hello-notes',
 *     onCacheEntryAdded: (_arg, lifecycle) =>
 *       streamSocketEvent<Note[], { action: string; note: Note }>(lifecycle, { channel: 'hello' }, (draft, { action, note }) => {
 *         if (action === 'create') draft.push(note);
 *       }),
 *   }),
 * }) });
 */
export async function streamSocketEvent<Data, Payload>(
  lifecycle: CacheEntryLifecycle<Data>,
  ref: SocketEventRef,
  apply: (draft: Draft<Data>, payload: Payload) => void,
): Promise<void> {
  try {
    await lifecycle.cacheDataLoaded;
  } catch {
    // the entry went away before its first answer: nothing to keep live
    return;
  }
  let event: string;
  if ('event' in ref) {
    event = ref.event;
  } else {
    const companyId = (lifecycle.getState() as { session?: SessionState }).session?.user?.companyId;
    if (companyId === undefined) return;
    event = companyEvent(companyId, ref.channel);
  }
  const stop = subscribeSocketEvent<Payload>(event, (payload) => {
    lifecycle.updateCachedData((draft) => apply(draft, payload));
  });
  await lifecycle.cacheEntryRemoved;
  stop();
}
