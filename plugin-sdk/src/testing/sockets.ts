/**
 * socket.io clients for tests of realtime behaviour: a real client against a test app's real server
 * (`t.listen()`), never a mock.
 */
import { io, type Socket } from 'socket.io-client';

/** A socket.io client for a company namespace, with no reconnection (a refusal must stay a refusal). */
export function companySocket(url: string, companyId: number | string, token: string | undefined): Socket {
  return io(`${url}/${companyId}`, {
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
}

/** Connects to a company namespace; resolves once connected, rejects with the handshake's refusal. */
export function connectSocket(url: string, companyId: number | string, token: string | undefined): Promise<Socket> {
  const socket = companySocket(url, companyId, token);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error: Error & { data?: { error?: string } }) => {
      socket.close();
      reject(Object.assign(new Error(error.data?.error ?? error.message), { data: error.data }));
    });
  });
}

/** Records every event a socket receives, in order, to assert on what arrived and what didn't. */
export function recordEvents(socket: Socket): Array<{ event: string; payload: unknown }> {
  const received: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  return received;
}

/** Resolves with the payload of the next `event` on `socket` that matches `predicate`. */
export function nextEvent<T = unknown>(
  socket: Socket,
  event: string,
  predicate: (payload: T) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: T) => {
      if (!predicate(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}
