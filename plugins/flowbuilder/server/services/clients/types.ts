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

/** The texts of a JSON answer's values, for answers that are a string, a list of them or an object with one. */
export function textsOf(value: unknown, keys: readonly string[]): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((item) => textsOf(item, keys));
  if (value && typeof value === 'object') {
    for (const key of keys) {
      const found = (value as Record<string, unknown>)[key];
      if (found !== undefined) return textsOf(found, keys);
    }
  }
  return [];
}
