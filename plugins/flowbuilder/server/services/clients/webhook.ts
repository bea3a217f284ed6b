import type { ClientDeps, IntegrationAnswer, IntegrationTurn } from './types';
import { IntegrationFailure, textsOf } from './types';

/** The fields an answer's text is read from, first found wins (n8n's AI agent answers `output`). */
const ANSWER_KEYS = ['text', 'message', 'reply', 'output', 'answer', 'messages'] as const;

/**
 * n8n and plain webhooks (docs/product/automation.md "Queue integrations at work"): the customer's message
 * and its ticket are POSTed as JSON to the integration's URL; a 2xx answer's text goes back to the customer —
 * a plain-text body as it is, a JSON body's `text`, `message`, `reply`, `output`, `answer` or `messages` (a
 * string or a list of them). An empty answer sends nothing; any other status is a failure.
 */
export async function askWebhook(
  deps: ClientDeps,
  integration: { type: string; urlN8N: string },
  turn: IntegrationTurn,
): Promise<IntegrationAnswer> {
  const answer = await deps.http.request(integration.urlN8N, {
    method: 'POST',
    json: {
      event: 'message',
      integration: integration.type,
      message: { id: turn.messageId, body: turn.body, fromMe: false },
      ticket: turn.ticket,
      contact: turn.contact,
    },
  });
  if (answer.status < 200 || answer.status >= 300) throw new IntegrationFailure(`status ${answer.status}`);
  const type = answer.headers['content-type'] ?? '';
  if (type.includes('json')) {
    const parsed = answer.json();
    if (parsed === undefined) throw new IntegrationFailure('invalid JSON');
    return { messages: textsOf(parsed, ANSWER_KEYS), sessionId: turn.sessionId };
  }
  if (type !== '' && !type.startsWith('text/')) throw new IntegrationFailure(`unexpected content type ${type}`);
  const text = answer.text().trim();
  return { messages: text === '' ? [] : [text], sessionId: turn.sessionId };
}
