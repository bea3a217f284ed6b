import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FlowbuilderKit, flowbuilderKit, until } from '../testing/kit';
import { assertionSignedBy, type StandIn, startStandIn } from '../testing/stand-ins';

/**
 * Integrations at work: a ticket handed to an integration gets its answers from our real clients talking
 * to local stand-ins of n8n/webhooks, Typebot's chat API and Dialogflow ES (allow-listed 127.0.0.1), through
 * the guarded client; a stand-in that is slow, answers garbage or 5 MB never holds the inbox up — the
 * failure is recorded and the ticket goes back to its queue.
 */
let kit: FlowbuilderKit;
let standIn: StandIn;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

beforeAll(async () => {
  standIn = await startStandIn();
  kit = await flowbuilderKit({
    FLOWBUILDER_HTTP_TIMEOUT_MS: '500',
    FLOWBUILDER_HTTP_MAX_BYTES: String(256 * 1024),
    FLOWBUILDER_DIALOGFLOW_URL: standIn.url,
  });
}, 120_000);
afterAll(async () => {
  await kit?.close();
  await standIn?.close();
});

async function integration(fields: Record<string, unknown>): Promise<number> {
  const created = await kit.api('POST', '/queueIntegration', fields);
  expect(created.status).toBe(200);
  return created.body.id;
}

/** A customer whose ticket is handed to the integration after a first message. */
async function handedTo(integrationId: number, from: string): Promise<number> {
  const { ticketId } = await kit.say(from, 'primeira mensagem');
  await kit
    .knex('tickets')
    .where({ id: ticketId })
    .update({ useIntegration: true, integrationId, status: 'pending', userId: null });
  return ticketId;
}

const ticketOf = (ticketId: number) =>
  kit.knex('tickets').where({ id: ticketId }).first('useIntegration', 'integrationId', 'status');
const sessionOf = (ticketId: number) => kit.knex('integrationSessions').where({ ticketId }).first();

describe('webhook and n8n', () => {
  it('POSTs the message and its ticket, and sends the answer’s text back', async () => {
    standIn.on('/n8n/hook', (request) => ({ body: { output: `eco: ${request.json.message.body}` } }));
    const id = await integration({ type: 'n8n', name: 'n8n', urlN8N: `${standIn.url}/n8n/hook` });
    const ticketId = await handedTo(id, 'n8n');
    const { messageId } = await kit.say('n8n', 'qual o horário?');
    await until(async () => (await kit.botTexts(ticketId)).includes('eco: qual o horário?'));
    const call = standIn.received.find((entry) => entry.path === '/n8n/hook');
    expect(call?.json).toMatchObject({
      event: 'message',
      integration: 'n8n',
      message: { id: messageId, body: 'qual o horário?', fromMe: false },
      ticket: { id: ticketId, status: 'pending' },
      contact: { name: 'Cliente n8n' },
    });
    expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: true, integrationId: id });
  });

  it('sends a plain-text answer as it is', async () => {
    standIn.on('/plain', { type: 'text/plain; charset=utf-8', body: 'Olá do webhook' });
    const id = await integration({ type: 'webhook', name: 'texto', urlN8N: `${standIn.url}/plain` });
    const ticketId = await handedTo(id, 'plain');
    await kit.say('plain', 'oi');
    await until(async () => (await kit.botTexts(ticketId)).includes('Olá do webhook'));
  });
});

describe('one turn at a time per ticket', () => {
  it('two quick messages are answered one after the other', async () => {
    const arrivals: number[] = [];
    standIn.on('/serial', (request) => {
      arrivals.push(Date.now());
      return { delayMs: 300, body: { text: `eco ${request.json.message.body}` } };
    });
    const id = await integration({ type: 'webhook', name: 'em série', urlN8N: `${standIn.url}/serial` });
    const ticketId = await handedTo(id, 'serial');
    await kit.say('serial', 'um');
    await kit.say('serial', 'dois');
    await until(async () => (await kit.botTexts(ticketId)).includes('eco dois'), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // the later turn starts only once the earlier has its answer (a turn that finds a newer message
    // answered already skips its own, so one or two calls)
    expect(arrivals.length).toBeGreaterThanOrEqual(1);
    for (const [index, at] of arrivals.entries()) {
      if (index > 0) expect(at - (arrivals[index - 1] as number)).toBeGreaterThanOrEqual(250);
    }
  });
});

describe('a stand-in that fails never holds the inbox up', () => {
  it.each([
    ['slow', { delayMs: 3_000, body: { text: 'tarde demais' } }, 'timeout'],
    ['garbage', { type: 'application/json', body: '{"text": nope' }, 'invalid JSON'],
    ['huge', { streamBytes: 5 * 1024 * 1024 }, 'too-large'],
    ['error', { status: 500, body: { error: 'boom' } }, 'status 500'],
  ] as const)('%s: the failure is recorded and the ticket goes back to its queue', async (name, answer, reason) => {
    standIn.on(`/bad/${name}`, answer);
    const id = await integration({ type: 'webhook', name: `ruim ${name}`, urlN8N: `${standIn.url}/bad/${name}` });
    const ticketId = await handedTo(id, `bad-${name}`);
    const started = Date.now();
    await kit.say(`bad-${name}`, 'alguém aí?');
    // the receive path only enqueues the answer
    expect(Date.now() - started).toBeLessThan(400);
    await until(async () => (await ticketOf(ticketId)).useIntegration === false);
    expect((await sessionOf(ticketId)).lastError).toBe(reason);
    expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: false, status: 'pending' });
    // and the next message stays with people
    const before = standIn.received.length;
    await kit.say(`bad-${name}`, 'e agora?');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(standIn.received.filter((entry) => entry.path === `/bad/${name}`)).toHaveLength(1);
    expect(standIn.received.length).toBe(before);
  });

  it('refuses an address the platform does not allow, as a failure of the integration', async () => {
    // 10.255.255.1 is private: not on the test's allow-list
    const id = await integration({ type: 'webhook', name: 'interna', urlN8N: 'http://10.255.255.1/hook' });
    const ticketId = await handedTo(id, 'private');
    await kit.say('private', 'oi');
    await until(async () => (await ticketOf(ticketId)).useIntegration === false);
    expect((await sessionOf(ticketId)).lastError).toBe('blocked-address');
  });
});

describe('a malformed answer is a failure of the integration, never a stuck ticket', () => {
  const nested = (depth: number): object => ({ text: [depth === 0 ? 'fundo' : nested(depth - 1)] });
  it.each([
    ['deep', { body: nested(50) }],
    ['typebot-long-session', { body: { sessionId: 's'.repeat(300), messages: [] } }],
    ['typebot-nul-session', { body: { sessionId: 'a\u0000b', messages: [] } }],
  ] as const)('%s: recorded as invalid answer and handed back', async (name, answer) => {
    const typebot = name.startsWith('typebot');
    standIn.on(typebot ? `/mal/${name}/api/v1/typebots/bot/startChat` : `/mal/${name}`, answer);
    const id = await integration(
      typebot
        ? { type: 'typebot', name: `mal ${name}`, urlN8N: `${standIn.url}/mal/${name}`, typebotSlug: 'bot' }
        : { type: 'webhook', name: `mal ${name}`, urlN8N: `${standIn.url}/mal/${name}` },
    );
    const ticketId = await handedTo(id, `mal-${name}`);
    await kit.say(`mal-${name}`, 'oi');
    await until(async () => (await ticketOf(ticketId)).useIntegration === false);
    expect((await sessionOf(ticketId)).lastError).toBe('invalid answer');
  });

  it('skips Typebot bubbles of an unknown shape and sends the rest', async () => {
    standIn.on('/mal/tb-shape/api/v1/typebots/bot/startChat', {
      body: {
        sessionId: 'shape-1',
        messages: [
          { type: 'text', content: { richText: 'não é lista' } },
          { type: 'text', content: { richText: [{ children: 'nem isto' }] } },
          { type: 'text', content: { richText: [{ text: 'certo' }] } },
          null,
        ],
        input: { type: 'choice input', items: 'x' },
      },
    });
    const id = await integration({ type: 'typebot', name: 'forma', urlN8N: `${standIn.url}/mal/tb-shape`, typebotSlug: 'bot' });
    const ticketId = await handedTo(id, 'tb-shape');
    await kit.say('tb-shape', 'oi');
    await until(async () => (await kit.botTexts(ticketId)).includes('certo'));
    expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: true });
    expect((await sessionOf(ticketId)).lastError).toBeNull();
  });

  it('sends at most 20 texts of one answer, without NUL characters', async () => {
    const texts = Array.from({ length: 1_000 }, (_, index) => `linha\u0000 ${index}`);
    standIn.on('/mal/many', { body: { messages: texts } });
    const id = await integration({ type: 'webhook', name: 'muitas', urlN8N: `${standIn.url}/mal/many` });
    const ticketId = await handedTo(id, 'many');
    await kit.say('many', 'oi');
    await until(async () => (await kit.botTexts(ticketId)).length >= 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = await kit.botTexts(ticketId);
    expect(sent).toHaveLength(20);
    expect(sent[0]).toBe('linha 0');
    expect(sent[19]).toBe('linha 19');
  });
});

describe('Typebot', () => {
  it('starts a session, continues it, spaces its bubbles, restarts and finishes on the keywords', async () => {
    let sessions = 0;
    standIn.on('/typebot/api/v1/typebots/atendimento/startChat', () => {
      sessions += 1;
      return {
        body: {
          sessionId: `sess-${sessions}`,
          messages: [
            {
              id: 'a',
              type: 'text',
              content: {
                type: 'richText',
                richText: [{ type: 'p', children: [{ text: 'Olá, ' }, { text: 'tudo bem?', bold: true }] }],
              },
            },
            { id: 'b', type: 'image', content: { url: 'https://cdn.example/logo.png' } },
          ],
          input: { type: 'choice input', items: [{ content: 'Vendas' }, { content: 'Suporte' }] },
        },
      };
    });
    standIn.on('/typebot/api/v1/sessions/sess-1/continueChat', (request) => ({
      body: {
        messages: [
          {
            id: 'c',
            type: 'text',
            content: { type: 'richText', richText: [{ children: [{ text: `Você escolheu ${request.json.message.text}` }] }] },
          },
        ],
      },
    }));
    const id = await integration({
      type: 'typebot',
      name: 'Typebot',
      urlN8N: `${standIn.url}/typebot/`,
      typebotSlug: 'atendimento',
      typebotDelayMessage: 300,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'Recomeçando!',
    });
    const ticketId = await handedTo(id, 'typebot');
    await kit.say('typebot', 'oi');
    await until(async () => (await kit.botTexts(ticketId)).length >= 3, 10_000);
    const texts = await kit.botTexts(ticketId);
    expect(texts).toEqual(['Olá, tudo bem?', 'https://cdn.example/logo.png', '1 - Vendas\n2 - Suporte']);
    const start = standIn.received.find((entry) => entry.path === '/typebot/api/v1/typebots/atendimento/startChat');
    expect(start?.json).toMatchObject({ message: { type: 'text', text: 'oi' }, prefilledVariables: { ticketId } });
    // the bubbles are delayed jobs, typebotDelayMessage apart
    const sent: Array<{ createdAt: Date }> = await kit
      .knex('messages')
      .where({ ticketId, fromMe: true })
      .orderBy('id')
      .select('createdAt');
    const [first, second] = sent.map((row) => new Date(row.createdAt).getTime());
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(250);

    await kit.say('typebot', 'Vendas');
    await until(async () => (await kit.botTexts(ticketId)).includes('Você escolheu Vendas'));
    expect((await sessionOf(ticketId)).sessionId).toBe('sess-1');

    await kit.say('typebot', 'Reiniciar');
    await until(async () => (await kit.botTexts(ticketId)).includes('Recomeçando!'));
    expect((await sessionOf(ticketId)).sessionId).toBeNull();
    await kit.say('typebot', 'de novo');
    await until(async () => sessions === 2);

    await kit.say('typebot', 'sair');
    await until(async () => (await ticketOf(ticketId)).useIntegration === false);
    expect(await sessionOf(ticketId)).toBeUndefined();
  });

  it('starts over when the session has been quiet for longer than typebotExpires', async () => {
    let starts = 0;
    standIn.on('/tb2/api/v1/typebots/exp/startChat', () => {
      starts += 1;
      return {
        body: {
          sessionId: `exp-${starts}`,
          messages: [{ type: 'text', content: { richText: [{ children: [{ text: `início ${starts}` }] }] } }],
        },
      };
    });
    standIn.on('/tb2/api/v1/sessions/exp-1/continueChat', { body: { messages: [] } });
    const id = await integration({
      type: 'typebot',
      name: 'Expira',
      urlN8N: `${standIn.url}/tb2`,
      typebotSlug: 'exp',
      typebotExpires: 1,
      typebotUnknownMessage: 'Não entendi',
    });
    const ticketId = await handedTo(id, 'expira');
    await kit.say('expira', 'oi');
    await until(async () => (await kit.botTexts(ticketId)).includes('início 1'));
    await kit.say('expira', '???');
    // a continue without bubbles sends typebotUnknownMessage
    await until(async () => (await kit.botTexts(ticketId)).includes('Não entendi'));
    await kit
      .knex('integrationSessions')
      .where({ ticketId })
      .update({ lastActivityAt: new Date(Date.now() - 2 * 60_000) });
    await kit.say('expira', 'voltei');
    await until(async () => (await kit.botTexts(ticketId)).includes('início 2'));
  });
});

describe('Dialogflow ES', () => {
  const account = () =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'acme-bot',
      client_email: 'bot@acme-bot.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: `${standIn.url}/token`,
    });

  beforeAll(() => {
    const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    standIn.on('/token', (request) => {
      const assertion = new URLSearchParams(request.body).get('assertion') ?? '';
      return assertionSignedBy(assertion, publicPem)
        ? { body: { access_token: 'token-acme', token_type: 'Bearer', expires_in: 3600 } }
        : { status: 400, body: { error: 'invalid_grant' } };
    });
    standIn.on('/v2/projects/acme-bot/agent/sessions/ticket-0:detectIntent', {
      body: { queryResult: { fulfillmentText: 'Teste ok' } },
    });
  });

  it('detects the intent with a signed service account and sends the fulfillment messages', async () => {
    const id = await integration({ type: 'dialogflow', name: 'Dialogflow', language: 'pt-BR', jsonContent: account() });
    const ticketId = await handedTo(id, 'dialogflow');
    standIn.on(`/v2/projects/acme-bot/agent/sessions/ticket-${ticketId}:detectIntent`, (request) => ({
      status: request.headers.authorization === 'Bearer token-acme' ? 200 : 401,
      body: {
        queryResult: {
          fulfillmentMessages: [
            {
              text: {
                text: [`Intent para "${request.json.queryInput.text.text}" em ${request.json.queryInput.text.languageCode}`],
              },
            },
          ],
        },
      },
    }));
    await kit.say('dialogflow', 'boleto');
    await until(async () => (await kit.botTexts(ticketId)).includes('Intent para "boleto" em pt-BR'));
  });

  it('tries a service account with POST /queueIntegration/testSession, stored or given', async () => {
    const given = await kit.api('POST', '/queueIntegration/testSession', {
      projectName: 'acme-bot',
      jsonContent: account(),
      language: 'pt-BR',
    });
    expect(given).toMatchObject({ status: 200, body: { ok: true, messages: ['Teste ok'] } });
    const id = await integration({ type: 'dialogflow', name: 'Guardada', language: 'en', jsonContent: account() });
    const stored = await kit.api('POST', '/queueIntegration/testSession', { integrationId: id });
    expect(stored).toMatchObject({ status: 200, body: { ok: true } });
    const badKey = await kit.api('POST', '/queueIntegration/testSession', {
      jsonContent: JSON.stringify({ ...JSON.parse(account()), private_key: 'not a key' }),
      language: 'pt-BR',
    });
    expect(badKey).toMatchObject({ status: 502, body: { error: 'ERR_INTEGRATION_UNREACHABLE' } });
    expect(await kit.api('POST', '/queueIntegration/testSession', { jsonContent: '{}', language: 'pt-BR' })).toMatchObject({
      status: 400,
      body: { error: 'ERR_INTEGRATION_CREDENTIALS_INVALID' },
    });
    expect(await kit.api('POST', '/queueIntegration/testSession', { jsonContent: account(), language: 'fr' })).toMatchObject({
      status: 400,
      body: { error: 'ERR_INTEGRATION_LANGUAGE_REQUIRED' },
    });
  });

  it('answers a malformed detectIntent reply with no texts, not a 500', async () => {
    standIn.on('/v2/projects/odd-bot/agent/sessions/ticket-0:detectIntent', {
      body: { queryResult: { fulfillmentMessages: 'não é lista', fulfillmentText: 42 } },
    });
    const odd = JSON.stringify({ ...JSON.parse(account()), project_id: 'odd-bot' });
    const tried = await kit.api('POST', '/queueIntegration/testSession', { jsonContent: odd, language: 'pt-BR' });
    expect(tried).toMatchObject({ status: 200, body: { ok: true, messages: [] } });
  });
});

describe('handed over by the chatbot', () => {
  const bubble = (text: string) => ({ type: 'text', content: { type: 'richText', richText: [{ children: [{ text }] }] } });

  it('a queue with integrationId and a chatbot option of type integration hand the ticket over', async () => {
    const starts: Array<{ message?: unknown }> = [];
    standIn.on('/hand/api/v1/typebots/boas-vindas/startChat', (request) => {
      starts.push(request.json);
      return { body: { sessionId: `hand-${starts.length}`, messages: [bubble('Oi! Sou o bot.')] } };
    });
    standIn.on('/hand-hook', (request) => ({ body: { text: `webhook: ${request.json.message.body}` } }));
    const typebot = await integration({
      type: 'typebot',
      name: 'Boas-vindas',
      urlN8N: `${standIn.url}/hand`,
      typebotSlug: 'boas-vindas',
    });
    const webhook = await integration({ type: 'webhook', name: 'Robô', urlN8N: `${standIn.url}/hand-hook` });
    const botQueue = await kit.api('POST', '/queue', {
      name: 'Bot',
      color: '#0a0a0a',
      greetingMessage: 'Fila do bot',
      orderQueue: 1,
      integrationId: typebot,
      chatbots: [],
    });
    expect(botQueue.status).toBe(201);
    const menuQueue = await kit.api('POST', '/queue', {
      name: 'Menu',
      color: '#0b0b0b',
      greetingMessage: 'Escolha uma opção',
      orderQueue: 2,
      chatbots: [
        { name: 'Humano', greetingMessage: 'Aguarde um atendente', queueType: 'text' },
        { name: 'Robô', greetingMessage: 'Chamando o robô', queueType: 'integration', optIntegrationId: webhook },
      ],
    });
    expect(menuQueue.status).toBe(201);

    // the queue: its greeting, then the Typebot greets at once (its start carries no customer text)
    const { ticketId } = await kit.say('hand-queue', 'oi');
    await kit.say('hand-queue', '1');
    await until(async () => (await kit.botTexts(ticketId)).includes('Oi! Sou o bot.'));
    expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: true, integrationId: typebot });
    expect((await kit.botTexts(ticketId)).indexOf('Fila do bot')).toBeLessThan(
      (await kit.botTexts(ticketId)).indexOf('Oi! Sou o bot.'),
    );
    expect(starts).toHaveLength(1);
    expect(starts[0]?.message).toBeUndefined();

    // the option: the webhook answers the customer's next message, never the choice itself
    const option = await kit.say('hand-option', 'oi');
    await kit.say('hand-option', '2');
    await kit.say('hand-option', '2');
    await until(async () => (await ticketOf(option.ticketId)).useIntegration === true);
    await kit.say('hand-option', 'preciso de ajuda');
    await until(async () => (await kit.botTexts(option.ticketId)).includes('webhook: preciso de ajuda'));
    const forwarded = standIn.received.filter((entry) => entry.path === '/hand-hook').map((entry) => entry.json.message.body);
    expect(forwarded).toEqual(['preciso de ajuda']);
  });

  it('keeps the ticket with people when the plan has no integrations', async () => {
    const { planId } = await kit.knex('companies').where({ id: kit.acme }).first('planId');
    const sessions = kit.t.balcao.core.sessions;
    await kit.knex('plans').where({ id: planId }).update({ useIntegrations: false });
    await sessions.invalidateCompany(kit.acme);
    try {
      const { ticketId } = await kit.say('hand-no-plan', 'oi');
      await kit.say('hand-no-plan', '1');
      await until(async () => (await kit.botTexts(ticketId)).includes('Fila do bot'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await ticketOf(ticketId)).toMatchObject({ useIntegration: false, status: 'pending' });
    } finally {
      await kit.knex('plans').where({ id: planId }).update({ useIntegrations: true });
      await sessions.invalidateCompany(kit.acme);
    }
  });

  it('refuses an integration the company does not have on a queue or an option', async () => {
    const missing = await kit.api('POST', '/queue', {
      name: 'Sem integração',
      color: '#0c0c0c',
      greetingMessage: 'Olá',
      integrationId: 999_999,
      chatbots: [],
    });
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_INTEGRATION_FOUND' } });
    const option = await kit.api('POST', '/queue', {
      name: 'Sem integração',
      color: '#0c0c0c',
      greetingMessage: 'Olá',
      chatbots: [{ name: 'Robô', greetingMessage: 'Chamando', queueType: 'integration', optIntegrationId: 999_999 }],
    });
    expect(option).toMatchObject({ status: 404, body: { error: 'ERR_NO_INTEGRATION_FOUND' } });
  });
});
