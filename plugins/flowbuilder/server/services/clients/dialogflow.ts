import { createSign } from 'node:crypto';
import type { ClientDeps, IntegrationAnswer, IntegrationTurn } from './types';
import { IntegrationFailure } from './types';

/** The parts of a Google service account key (its JSON file) Dialogflow needs. */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  token_uri: string;
}

/** The service account in `jsonContent`, or null when it lacks what a call needs. */
export function parseServiceAccount(jsonContent: string): ServiceAccount | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonContent);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const account = parsed as Record<string, unknown>;
  for (const key of ['project_id', 'client_email', 'private_key']) {
    if (typeof account[key] !== 'string' || account[key] === '') return null;
  }
  return {
    project_id: account.project_id as string,
    client_email: account.client_email as string,
    private_key: account.private_key as string,
    token_uri: typeof account.token_uri === 'string' ? account.token_uri : 'https://oauth2.googleapis.com/token',
  };
}

const SCOPE = 'https://www.googleapis.com/auth/dialogflow';

/** The signed assertion of OAuth 2.0's JWT bearer grant (RFC 7523), RS256 with the account's key. */
export function serviceAccountAssertion(account: ServiceAccount, now = Date.now()): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const issuedAt = Math.floor(now / 1000);
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({
    iss: account.client_email,
    scope: SCOPE,
    aud: account.token_uri,
    iat: issuedAt,
    exp: issuedAt + 3600,
  })}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.private_key).toString('base64url');
  } catch {
    throw new IntegrationFailure('invalid private key');
  }
  return `${unsigned}.${signature}`;
}

/** An access token for the account (the token endpoint is called through the guarded client too). */
async function accessToken(deps: ClientDeps, account: ServiceAccount): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: serviceAccountAssertion(account),
  }).toString();
  const answer = await deps.http.request(account.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const token = answer.json<{ access_token?: unknown }>()?.access_token;
  if (answer.status !== 200 || typeof token !== 'string') throw new IntegrationFailure(`token status ${answer.status}`);
  return token;
}

interface DetectIntentReply {
  queryResult?: { fulfillmentText?: string; fulfillmentMessages?: Array<{ text?: { text?: string[] } }> };
}

/**
 * Dialogflow ES detectIntent: the ticket is the session (one conversation per ticket), the customer's text
 * the query in the integration's language; the fulfillment messages' texts go back (the fulfillment text
 * when there are none).
 */
export async function askDialogflow(
  deps: ClientDeps & { apiUrl: string },
  settings: { language: string; account: ServiceAccount },
  turn: IntegrationTurn,
): Promise<IntegrationAnswer> {
  const token = await accessToken(deps, settings.account);
  const session = `projects/${encodeURIComponent(settings.account.project_id)}/agent/sessions/ticket-${turn.ticket.id}`;
  const answer = await deps.http.request(`${deps.apiUrl.replace(/\/+$/, '')}/v2/${session}:detectIntent`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    json: { queryInput: { text: { text: turn.body || '-', languageCode: settings.language } } },
  });
  if (answer.status !== 200) throw new IntegrationFailure(`status ${answer.status}`);
  const reply = answer.json<DetectIntentReply>();
  if (!reply || typeof reply !== 'object') throw new IntegrationFailure('invalid JSON');
  const result = reply.queryResult && typeof reply.queryResult === 'object' ? reply.queryResult : {};
  // a shape other than the documented one (not a list, not a string) is skipped, never trusted
  const fulfillment = Array.isArray(result.fulfillmentMessages) ? result.fulfillmentMessages : [];
  const texts = fulfillment
    .flatMap((message) => (Array.isArray(message?.text?.text) ? message.text.text : []))
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  if (texts.length === 0 && typeof result.fulfillmentText === 'string' && result.fulfillmentText.trim() !== '') {
    texts.push(result.fulfillmentText);
  }
  return { messages: texts, sessionId: session };
}
