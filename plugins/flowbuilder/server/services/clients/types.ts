import type { OutboundHttp } from '@balcao/plugin-sdk/server';

/** What an integration is told of one customer message. */
export interface IntegrationTurn {
  /** The customer's text (empty when the turn opens a conversation without one). */
  body: string;
  messageId: number | null;
  ticket: { id: number; status: string; queueId: number | null; whatsappId: number | null };
  contact: { id: number; name: string; number: string };
  /** The integration's own session with this ticket, when one is running. */
  sessionId: string | null;
}

/** What it answers: the texts to send the customer, in order, and its session from now on. */
export interface IntegrationAnswer {
  messages: string[];
  sessionId: string | null;
}

/** An integration's answer that is no answer (a status, a shape): the ticket goes back to its queue. */
export class IntegrationFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'IntegrationFailure';
  }
}

export interface ClientDeps {
  http: OutboundHttp;
}

/** How deep textsOf follows lists and objects: deeper answers are broken ones, not texts. */
const MAX_TEXT_DEPTH = 8;

/** The texts of a JSON answer's values, for answers that are a string, a list of them or an object with one. */
export function textsOf(value: unknown, keys: readonly string[], depth = 0): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (depth >= MAX_TEXT_DEPTH) throw new IntegrationFailure('invalid answer');
  if (Array.isArray(value)) return value.flatMap((item) => textsOf(item, keys, depth + 1));
  if (value && typeof value === 'object') {
    for (const key of keys) {
      const found = (value as Record<string, unknown>)[key];
      if (found !== undefined) return textsOf(found, keys, depth + 1);
    }
  }
  return [];
}

/** At most this many texts of one answer are sent (docs/product/automation.md); the rest are dropped. */
export const MAX_ANSWER_TEXTS = 20;
/** A text longer than this is cut: no chat channel takes more in one message. */
export const MAX_ANSWER_TEXT_CHARS = 4096;
/** The longest session id kept (the column's size); a longer one is a broken answer. */
export const MAX_SESSION_ID_CHARS = 200;

/**
 * An answer as it can be stored and sent: texts without NUL characters (Postgres refuses them), cut to
 * MAX_ANSWER_TEXT_CHARS, at most MAX_ANSWER_TEXTS of them; a session id that is not a short string is a
 * broken answer (IntegrationFailure 'invalid answer').
 */
export function sanitizeAnswer(answer: IntegrationAnswer): IntegrationAnswer {
  if (!answer || !Array.isArray(answer.messages)) throw new IntegrationFailure('invalid answer');
  const { sessionId } = answer;
  if (
    sessionId !== null &&
    (typeof sessionId !== 'string' || sessionId.length > MAX_SESSION_ID_CHARS || sessionId.includes('\0'))
  ) {
    throw new IntegrationFailure('invalid answer');
  }
  const messages: string[] = [];
  for (const text of answer.messages) {
    if (typeof text !== 'string') throw new IntegrationFailure('invalid answer');
    const clean = text.replaceAll('\0', '').slice(0, MAX_ANSWER_TEXT_CHARS);
    if (clean.trim() !== '') messages.push(clean);
    if (messages.length === MAX_ANSWER_TEXTS) break;
  }
  return { messages, sessionId };
}
