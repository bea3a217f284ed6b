import {
  badInputWalk,
  connectSocket,
  crossTenantWalk,
  nextEvent,
  ownRoutes,
  routeContractProblems,
  seedTenantFixtures,
} from '@balcao/plugin-sdk/testing';
import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../ui/locales/en.json';
import es from '../../ui/locales/es.json';
import pt from '../../ui/locales/pt.json';
import tr from '../../ui/locales/tr.json';
import { aiErrors } from '../errors';
import { type AiKit, aiKit } from '../testing/kit';

/**
 * The prompts' routes per docs/ai.md: defaults, validation ("Informe o setor"), keys sealed and masked,
 * admins only, the plan gate, the live channel, the connections' `promptId`, and the SDK walkers.
 */
let kit: AiKit;
beforeAll(async () => {
  kit = await aiKit();
}, 120_000);
afterAll(() => kit?.close());

const PROMPT_TEXT = 'Você é o assistente da loja e responde perguntas sobre pedidos com educação.';

describe('prompts', () => {
  it('creates with the defaults, masks the key, lists, changes and deletes, live for the admins', async () => {
    const queueId = await kit.queue('Vendas IA');
    const base = await kit.t.listen();
    const socket = await connectSocket(base, kit.acme, kit.adminToken);
    try {
      const created = nextEvent<{ action: string; prompt: { id: number } }>(
        socket,
        `company-${kit.acme}-prompt`,
        (p) => p.action === 'create',
        10_000,
      );
      const answer = await kit.api('POST', '/prompt', {
        name: 'Vendas',
        prompt: PROMPT_TEXT,
        queueId,
        apiKey: 'sk-secret-key-1234',
      });
      expect(answer).toMatchObject({
        status: 200,
        body: {
          name: 'Vendas',
          queueId,
          queue: { id: queueId, name: 'Vendas IA' },
          voice: 'texto',
          maxTokens: 100,
          temperature: 1,
          maxMessages: 10,
          apiKey: '••••••1234',
        },
      });
      expect((await created).prompt.id).toBe(answer.body.id);
      const row = await kit.knex('prompts').where({ id: answer.body.id }).first();
      expect(row.apiKeySealed).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain('sk-secret-key');
      const list = await kit.api('GET', '/prompt');
      expect(JSON.stringify(list.body)).not.toContain('sk-secret-key');
      expect(list.body.prompts.map((p: { id: number }) => p.id)).toContain(answer.body.id);

      const updated = nextEvent<{ action: string }>(socket, `company-${kit.acme}-prompt`, (p) => p.action === 'update', 10_000);
      const changed = await kit.api('PUT', `/prompt/${answer.body.id}`, {
        name: 'Vendas 2',
        prompt: PROMPT_TEXT,
        queueId,
        apiKey: '',
        voice: 'pt-BR-FranciscaNeural',
        temperature: 0.5,
      });
      expect(changed.body).toMatchObject({
        name: 'Vendas 2',
        voice: 'pt-BR-FranciscaNeural',
        temperature: 0.5,
        apiKey: '••••••1234',
      });
      await updated;
      expect((await kit.knex('prompts').where({ id: answer.body.id }).first()).apiKeySealed).toBe(row.apiKeySealed);

      const deleted = nextEvent<{ action: string; promptId: number }>(
        socket,
        `company-${kit.acme}-prompt`,
        (p) => p.action === 'delete',
        10_000,
      );
      expect(await kit.api('DELETE', `/prompt/${answer.body.id}`)).toMatchObject({
        status: 200,
        body: { message: expect.any(String) },
      });
      expect((await deleted).promptId).toBe(answer.body.id);
      expect(await kit.api('GET', `/prompt/${answer.body.id}`)).toMatchObject({
        status: 404,
        body: { error: 'ERR_NO_PROMPT_FOUND' },
      });
    } finally {
      socket.disconnect();
    }
  });

  it('refuses bad prompts: no queue ("Informe o setor"), no key, a taken queue, bad fields', async () => {
    const queueId = await kit.queue('Validação IA');
    const refused = async (body: object, status: number, error: string) =>
      expect(await kit.api('POST', '/prompt', body)).toMatchObject({ status, body: { error } });
    await refused({ name: 'Sem fila', prompt: PROMPT_TEXT, apiKey: 'sk-x' }, 400, 'ERR_PROMPT_QUEUE_REQUIRED');
    await refused({ name: 'Sem fila', prompt: PROMPT_TEXT, apiKey: 'sk-x', queueId: null }, 400, 'ERR_PROMPT_QUEUE_REQUIRED');
    await refused({ name: 'Sem chave', prompt: PROMPT_TEXT, queueId, apiKey: '  ' }, 400, 'ERR_PROMPT_API_KEY_REQUIRED');
    await refused({ name: '', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-x' }, 400, 'ERR_VALIDATION');
    await refused({ name: 'Voz', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-x', voice: 'pt-BR-Nobody' }, 400, 'ERR_VALIDATION');
    await refused({ name: 'Temp', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-x', temperature: 3 }, 400, 'ERR_VALIDATION');
    await refused({ name: 'URL', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-x', baseUrl: 'file:///etc' }, 400, 'ERR_VALIDATION');
    expect((await kit.api('POST', '/prompt', { name: 'Primeiro', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-x' })).status).toBe(
      200,
    );
    await refused({ name: 'Segundo', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-y' }, 409, 'ERR_PROMPT_QUEUE_TAKEN');
  });

  it('asks for the key again before sending it to a new provider address or voice region', async () => {
    const queueId = await kit.queue('Endereço IA');
    const base = { name: 'Endereço', prompt: PROMPT_TEXT, queueId, baseUrl: 'https://api.openai.com/v1' };
    const voice = { voice: 'pt-BR-FranciscaNeural', voiceRegion: 'brazilsouth' };
    const created = await kit.api('POST', '/prompt', { ...base, ...voice, apiKey: 'sk-original', voiceKey: 'vk-original' });
    const url = `/prompt/${created.body.id}`;
    const sealed = async () => kit.knex('prompts').where({ id: created.body.id }).first('baseUrl', 'voiceRegion', 'apiKeySealed');
    const before = await sealed();
    expect(await kit.api('PUT', url, { ...base, ...voice, baseUrl: 'https://attacker.example/v1', apiKey: '' })).toEqual({
      status: 400,
      body: { error: 'ERR_PROMPT_API_KEY_REENTRY_REQUIRED' },
    });
    expect(await kit.api('PUT', url, { ...base, ...voice, voiceRegion: 'eastus', voiceKey: ' ' })).toEqual({
      status: 400,
      body: { error: 'ERR_PROMPT_VOICE_KEY_REENTRY_REQUIRED' },
    });
    expect(await sealed()).toEqual(before);
    // the same address (a trailing slash aside) keeps the stored key; a new one with its key is fine
    expect((await kit.api('PUT', url, { ...base, ...voice, baseUrl: 'https://api.openai.com/v1/' })).status).toBe(200);
    const moved = await kit.api('PUT', url, { ...base, ...voice, baseUrl: 'https://llm.example/v1', apiKey: 'sk-new-5678' });
    expect(moved.body).toMatchObject({ baseUrl: 'https://llm.example/v1', apiKey: '••••••5678' });
    expect(
      (await kit.api('PUT', url, { ...base, baseUrl: 'https://llm.example/v1', voiceRegion: 'eastus', voiceKey: 'vk-new' })).body
        .voiceRegion,
    ).toBe('eastus');
  });

  it("refuses another company's queue and lets a connection name only the company's prompt", async () => {
    const lite = kit.t.demo.companies.lite as number;
    const [liteQueue] = await kit
      .knex('queues')
      .insert({ companyId: lite, name: 'Fila Lite IA', color: '#b10001' })
      .returning('id');
    expect(
      await kit.api('POST', '/prompt', { name: 'Alheia', prompt: PROMPT_TEXT, queueId: liteQueue.id, apiKey: 'sk-x' }),
    ).toMatchObject({
      status: 404,
    });
    const queueId = await kit.queue('Conexão IA');
    const prompt = await kit.api('POST', '/prompt', { name: 'Conexão', prompt: PROMPT_TEXT, queueId, apiKey: 'sk-x' });
    const [connection] = await kit
      .knex('whatsapps')
      .insert({
        companyId: kit.acme,
        name: 'Conexão IA',
        channel: 'whatsapp',
        status: 'DISCONNECTED',
        token: 'aitesttoken0123456789abcdefghi',
      })
      .returning('id');
    const named = await kit.api('PUT', `/whatsapp/${connection.id}`, { promptId: prompt.body.id });
    expect(named.status).toBe(200);
    const otherQueue = await kit
      .knex('queues')
      .insert({ companyId: lite, name: 'Outra Lite IA', color: '#b10002' })
      .returning('id');
    const [litePrompt] = await kit
      .knex('prompts')
      .insert({ companyId: lite, name: 'Lite', prompt: PROMPT_TEXT, queueId: otherQueue[0].id, apiKeySealed: 'v1.x.y.z' })
      .returning('id');
    expect(await kit.api('PUT', `/whatsapp/${connection.id}`, { promptId: litePrompt.id })).toMatchObject({ status: 404 });
    expect((await kit.knex('whatsapps').where({ id: connection.id }).first()).promptId).toBe(prompt.body.id);
    await kit.api('DELETE', `/prompt/${prompt.body.id}`);
    expect((await kit.knex('whatsapps').where({ id: connection.id }).first()).promptId).toBeNull();
  });

  it('is for admins of a plan with useOpenAi only', async () => {
    const agent = await kit.t.login('agent@acme.test');
    expect((await kit.api('GET', '/prompt', undefined, agent.token)).status).toBe(403);
    const lite = await kit.t.login('admin@lite.test');
    expect(await kit.api('GET', '/prompt', undefined, lite.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
    });
    expect(await kit.api('GET', '/messages/transcribeAudio/x.ogg', undefined, lite.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
    });
  });

  it('keeps the monthly cap and answers the usage', async () => {
    expect(await kit.api('PUT', '/prompt-usage/cap', { monthlyTokenCap: 5000 })).toMatchObject({
      status: 200,
      body: { monthlyTokenCap: 5000 },
    });
    expect((await kit.api('GET', '/prompt-usage?days=7')).body).toMatchObject({
      monthlyTokenCap: 5000,
      month: { tokensIn: expect.any(Number) },
    });
    expect((await kit.api('PUT', '/prompt-usage/cap', { monthlyTokenCap: null })).body.monthlyTokenCap).toBeNull();
  });

  it('has its texts in four languages and every code in pt', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
    for (const code of Object.keys(aiErrors)) expect((pt as { errors: Record<string, string> }).errors[code]).toBeTruthy();
  });

  it('keeps the route contract, tenants apart and refuses bad input', async () => {
    expect(routeContractProblems(kit.t, ownRoutes('ai'))).toEqual([]);
    const fixtures = await seedTenantFixtures(kit.t);
    const tenants = await crossTenantWalk(kit.t, fixtures, ownRoutes('ai'));
    for (const found of [
      tenants.gaps,
      tenants.control,
      tenants.lists,
      tenants.reads,
      tenants.writes,
      tenants.otherWrites,
      tenants.foreignIds,
    ])
      expect(found).toEqual([]);
    const input = await badInputWalk(kit.t, fixtures, ownRoutes('ai'));
    expect([...input.unbuildable, ...input.failures]).toEqual([]);
  }, 240_000);
});
