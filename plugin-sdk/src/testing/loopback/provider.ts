import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * The provider stand-in of the loopback channel (loopback-channel/server/index.ts), for tests and benches:
 * an HTTP server on 127.0.0.1 that takes messages and, like a real provider, keeps one per idempotency key —
 * a repeated key answers the first message's id and counts as a repeat, not as a message. It can be told
 * to refuse numbers (unknown on the channel) and to fail sends for a while.
 */
export interface LoopbackMessage {
  key: string;
  to: string;
  body: string;
  media: string | null;
  id: string;
  at: number;
}

export interface LoopbackProvider {
  url: string;
  /** Every message taken, once per key, in order. */
  messages: LoopbackMessage[];
  /** Sends whose key was taken before (answered with the first one's id). */
  repeats: number;
  /** Numbers answered "not on the channel" (send: 422; check: false). */
  unknownNumbers: Set<string>;
  /** The next `count` sends answer 503. */
  failNext(count: number): void;
  /** Messages per recipient number. */
  perRecipient(): Map<string, number>;
  /** Resolves once `check` holds (polled every 20 ms); rejects after `timeoutMs`. */
  waitFor(check: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startLoopbackProvider(): Promise<LoopbackProvider> {
  const byKey = new Map<string, LoopbackMessage>();
  // the ids of one stand-in never meet another's: the inbox keeps a channel's message ids unique, and a
  // database that outlives a stand-in (the bench's) still holds the ids the last one gave
  const idPrefix = `lb-${randomUUID().slice(0, 8)}-`;
  let failures = 0;
  const provider: LoopbackProvider = {
    url: '',
    messages: [],
    repeats: 0,
    unknownNumbers: new Set(),
    failNext(count) {
      failures = count;
    },
    perRecipient() {
      const counts = new Map<string, number>();
      for (const message of provider.messages) counts.set(message.to, (counts.get(message.to) ?? 0) + 1);
      return counts;
    },
    async waitFor(check, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error('loopback provider: condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.url === '/check') {
        const numbers = (body.numbers as string[]) ?? [];
        answer(200, { valid: numbers.map((number) => !provider.unknownNumbers.has(number)) });
        return;
      }
      const key = String(body.key);
      const known = byKey.get(key);
      if (known) {
        provider.repeats += 1;
        answer(200, { id: known.id });
        return;
      }
      if (failures > 0) {
        failures -= 1;
        answer(503, { error: 'unavailable' });
        return;
      }
      const to = String(body.to ?? '');
      if (provider.unknownNumbers.has(to)) {
        answer(422, { error: 'unknown number' });
        return;
      }
      const message: LoopbackMessage = {
        key,
        to,
        body: String(body.body ?? ''),
        media: (body.media as string | null) ?? null,
        id: `${idPrefix}${byKey.size + 1}`,
        at: Date.now(),
      };
      byKey.set(key, message);
      provider.messages.push(message);
      answer(200, { id: message.id });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  provider.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return provider;
}
