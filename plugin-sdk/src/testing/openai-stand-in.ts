import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in of an OpenAI-compatible provider's wire protocol (not streamed): chat completions,
 * audio transcriptions and speech, plus the Azure speech service's synthesis endpoint. The API key chooses
 * an error mode, so one prompt per mode exercises the real client:
 *
 * - `sk-401`: 401 invalid key; `sk-429`: 429 with `retry-after: 1`; `sk-500`: 500;
 * - `sk-timeout`: never answers (the client's deadline ends it); `sk-huge`: a 2 MB answer.
 *
 * Any other key answers: the reply repeats the customer's last message, and a last message containing
 * "assunto delicado" makes the model hand over (its answer carries the marker given). Usage counts one
 * token per four characters in and one per word out. Tests of the AI plugin and of features using its `ai`
 * service start it; so does the AI plugin's demo, for a newcomer without a key.
 */
export interface OpenAiStandIn {
  url: string;
  /** Every chat request received, in order (its parsed body and its key). */
  chats: Array<{
    apiKey: string;
    body: { model: string; temperature: number; max_tokens: number; messages: Array<{ role: string; content: string }> };
  }>;
  /** The keys of the chat requests left hanging (`sk-timeout`), in order: a request is in flight. */
  unanswered: string[];
  transcriptions: Array<{ apiKey: string; bytes: number }>;
  speeches: Array<{ text: string; voice: string }>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** The error mode of a key; true when the request was answered (or left hanging) by it. */
function errorMode(apiKey: string, response: ServerResponse): boolean {
  switch (apiKey) {
    case 'sk-401':
      json(response, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
      return true;
    case 'sk-429':
      json(
        response,
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '1' },
      );
      return true;
    case 'sk-500':
      json(response, 500, { error: { message: 'The server had an error', type: 'server_error' } });
      return true;
    case 'sk-timeout':
      // never answers: the client's deadline ends the request
      return true;
    case 'sk-huge':
      json(response, 200, { id: 'chatcmpl-huge', object: 'chat.completion', padding: 'x'.repeat(2 * 1024 * 1024), choices: [] });
      return true;
    default:
      return false;
  }
}

export async function startOpenAiStandIn(options: { port?: number; handoverMarker?: string } = {}): Promise<OpenAiStandIn> {
  const marker = options.handoverMarker ?? '[[ATENDENTE]]';
  const state: Omit<OpenAiStandIn, 'url' | 'close'> = { chats: [], unanswered: [], transcriptions: [], speeches: [] };
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(async (request, response) => {
    const apiKey =
      (request.headers.authorization ?? '').replace(/^Bearer /, '') || String(request.headers['ocp-apim-subscription-key'] ?? '');
    const body = await readBody(request);
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (apiKey === 'sk-timeout') hanging.add(response);
    if (request.method !== 'POST') return json(response, 404, { error: { message: 'not found' } });
    if (path.endsWith('/chat/completions')) {
      if (apiKey === 'sk-timeout') state.unanswered.push(apiKey);
      if (errorMode(apiKey, response)) return;
      const parsed = JSON.parse(body.toString('utf8')) as OpenAiStandIn['chats'][number]['body'];
      state.chats.push({ apiKey, body: parsed });
      const last = [...parsed.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      const text = last.includes('assunto delicado')
        ? `Vou chamar uma pessoa da equipe. ${marker}`
        : `Assistente: recebi "${last}".`;
      const chars = parsed.messages.reduce((sum, message) => sum + message.content.length, 0);
      const tokensOut = text.split(/\s+/).length;
      return json(response, 200, {
        id: `chatcmpl-${state.chats.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: parsed.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: Math.ceil(chars / 4),
          completion_tokens: tokensOut,
          total_tokens: Math.ceil(chars / 4) + tokensOut,
        },
      });
    }
    if (path.endsWith('/audio/transcriptions')) {
      if (errorMode(apiKey, response)) return;
      if (!String(request.headers['content-type']).startsWith('multipart/form-data') || !body.includes('name="file"'))
        return json(response, 400, { error: { message: 'file is required' } });
      state.transcriptions.push({ apiKey, bytes: body.length });
      return json(response, 200, { text: 'Olá, eu gostaria de saber o horário de funcionamento.' });
    }
    if (path.endsWith('/audio/speech') || path.endsWith('/cognitiveservices/v1')) {
      if (errorMode(apiKey, response)) return;
      const text = body.toString('utf8');
      const voice = /name=['"]([^'"]+)['"]/.exec(text)?.[1] ?? '';
      state.speeches.push({ text, voice });
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      return response.end(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(1024, 1)]));
    }
    json(response, 404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    ...state,
    url: `http://127.0.0.1:${port}/v1`,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
