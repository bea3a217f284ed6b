/**
 * A webhook receiver stand-in (not a test file): a real HTTP server on a loopback port that records every
 * request's raw body and headers and answers as the test sets it — a status, a delay (slow), or never
 * (a hang, for the crash test).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  rawBody: string;
}

export type Behaviour = { status: number; delayMs?: number } | 'hang';

export interface Receiver {
  /** The base address (`http://127.0.0.1:<port>`). */
  url: string;
  received: ReceivedDelivery[];
  /** How each path answers from now on (default 200 at once). */
  behave(path: string, behaviour: Behaviour): void;
  /** Called on every request as it arrives (before it is answered). */
  onRequest: ((delivery: ReceivedDelivery) => void) | null;
  /** Resolves once `predicate` holds, checked on every request (rejects after `timeoutMs`). */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const behaviours = new Map<string, Behaviour>();
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    behave: (path, behaviour) => behaviours.set(path, behaviour),
    onRequest: null,
    waitFor(predicate, timeoutMs = 15_000) {
      if (predicate()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${receiver.received.length} received)`));
        }, timeoutMs);
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const delivery: ReceivedDelivery = {
        path,
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      receiver.received.push(delivery);
      receiver.onRequest?.(delivery);
      for (const check of [...waiters]) check();
      const behaviour = behaviours.get(path) ?? { status: 200 };
      if (behaviour === 'hang') {
        hanging.add(response);
        return;
      }
      const answer = () => {
        if (!response.destroyed) response.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
