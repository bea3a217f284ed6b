/**
 * Local stand-ins for the services integrations talk to, speaking their shapes: a webhook (n8n's), Typebot's
 * chat API, Google's token endpoint and Dialogflow ES detectIntent — and the bad ones (slow, garbage,
 * 5 MB). Each records what it was sent. Not a test file.
 */
import { createVerify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: stand-ins record whatever JSON they get
  json: any;
}

export interface StandIn {
  url: string;
  received: Received[];
  /** What the next requests to a path answer (status, content type, body); a function for dynamic ones. */
  on(path: string, answer: Answer | ((request: Received) => Answer)): void;
  close(): Promise<void>;
}

export interface Answer {
  status?: number;
  type?: string;
  body?: string | object;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Bytes of filler to stream instead of a body. */
  streamBytes?: number;
}

export async function startStandIn(): Promise<StandIn> {
  const received: Received[] = [];
  const routes = new Map<string, Answer | ((request: Received) => Answer)>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
      const entry: Received = { path, headers: request.headers, body: raw, json };
      received.push(entry);
      const route = routes.get(path);
      const answer = typeof route === 'function' ? route(entry) : (route ?? { status: 404, body: 'no route' });
      const send = () => {
        response.on('error', () => {});
        if (answer.streamBytes) {
          response.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 'x');
          let sent = 0;
          const pump = () => {
            while (sent < (answer.streamBytes as number)) {
              sent += chunk.length;
              if (!response.write(chunk)) {
                response.once('drain', pump);
                return;
              }
            }
            response.end();
          };
          pump();
          return;
        }
        const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
        response.writeHead(answer.status ?? 200, {
          'content-type': answer.type ?? (typeof answer.body === 'string' ? 'text/plain' : 'application/json'),
        });
        response.end(body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path, answer) => routes.set(path, answer),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Whether a JWT bearer assertion is signed by the key's pair (what Google's token endpoint checks). */
export function assertionSignedBy(assertion: string, publicKeyPem: string): boolean {
  const [header, claims, signature] = assertion.split('.');
  if (!header || !claims || !signature) return false;
  return createVerify('RSA-SHA256').update(`${header}.${claims}`).verify(publicKeyPem, Buffer.from(signature, 'base64url'));
}
