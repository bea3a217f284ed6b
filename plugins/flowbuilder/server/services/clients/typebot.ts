import type { ClientDeps, IntegrationAnswer, IntegrationTurn } from './types';
import { IntegrationFailure } from './types';

/** A Typebot integration's fields this client reads. */
export interface TypebotSettings {
  urlN8N: string;
  typebotSlug: string;
}

interface RichNode {
  text?: string;
  type?: string;
  children?: RichNode[];
}

interface TypebotMessage {
  type?: string;
  content?: { type?: string; richText?: RichNode[]; markdown?: string; url?: string; plainText?: string };
}

interface TypebotReply {
  sessionId?: string;
  messages?: TypebotMessage[];
  input?: { type?: string; items?: Array<{ content?: string }> };
}

/** A paragraph of Typebot's rich text as plain text (its marks — bold, links — are dropped). */
function plain(node: RichNode, depth = 0): string {
  if (!node || typeof node !== 'object') return '';
  if (typeof node.text === 'string') return node.text;
  if (!Array.isArray(node.children) || depth >= 8) return '';
  return node.children.map((child) => plain(child, depth + 1)).join('');
}

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/** Typebot's bubbles as the texts a chat channel sends: text bubbles, media by their address, choices numbered. */
export function typebotTexts(reply: TypebotReply): string[] {
  const texts: string[] = [];
  // a shape other than the documented one (not a list, not a string) is skipped, never trusted
  const messages = Array.isArray(reply.messages) ? reply.messages : [];
  for (const message of messages) {
    if (!message || typeof message !== 'object') continue;
    const content = message.content && typeof message.content === 'object' ? message.content : {};
    if (message.type === 'text') {
      const text = Array.isArray(content.richText)
        ? content.richText.map((node) => plain(node)).join('\n')
        : stringOr(content.markdown, stringOr(content.plainText, ''));
      if (text.trim() !== '') texts.push(text);
    } else if (typeof content.url === 'string' && content.url !== '') {
      texts.push(content.url);
    }
  }
  const items = reply.input?.type === 'choice input' && Array.isArray(reply.input.items) ? reply.input.items : [];
  if (items.length > 0) {
    texts.push(items.map((item, index) => `${index + 1} - ${stringOr(item?.content, '')}`).join('\n'));
  }
  return texts;
}

function base(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Typebot's chat API: a ticket without a running session starts one on the bot's public id (its slug)
 * with the contact's name and number as prefilled variables; later messages continue it. A session
 * Typebot no longer knows (404) starts again.
 */
export async function askTypebot(deps: ClientDeps, settings: TypebotSettings, turn: IntegrationTurn): Promise<IntegrationAnswer> {
  if (turn.sessionId) {
    const answer = await deps.http.request(
      `${base(settings.urlN8N)}/api/v1/sessions/${encodeURIComponent(turn.sessionId)}/continueChat`,
      {
        method: 'POST',
        json: { message: { type: 'text', text: turn.body }, textBubbleContentFormat: 'richText' },
      },
    );
    if (answer.status !== 404) {
      if (answer.status < 200 || answer.status >= 300) throw new IntegrationFailure(`status ${answer.status}`);
      const reply = answer.json<TypebotReply>();
      if (!reply || typeof reply !== 'object') throw new IntegrationFailure('invalid JSON');
      return { messages: typebotTexts(reply), sessionId: turn.sessionId };
    }
  }
  const answer = await deps.http.request(
    `${base(settings.urlN8N)}/api/v1/typebots/${encodeURIComponent(settings.typebotSlug)}/startChat`,
    {
      method: 'POST',
      json: {
        ...(turn.body.trim() !== '' ? { message: { type: 'text', text: turn.body } } : {}),
        textBubbleContentFormat: 'richText',
        prefilledVariables: { number: turn.contact.number, pushName: turn.contact.name, ticketId: turn.ticket.id },
      },
    },
  );
  if (answer.status < 200 || answer.status >= 300) throw new IntegrationFailure(`status ${answer.status}`);
  const reply = answer.json<TypebotReply>();
  if (!reply || typeof reply !== 'object' || typeof reply.sessionId !== 'string') throw new IntegrationFailure('no session');
  return { messages: typebotTexts(reply), sessionId: reply.sessionId };
}
