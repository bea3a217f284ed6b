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
import { flowbuilderErrors } from '../errors';
import { type FlowbuilderKit, flowbuilderKit } from '../testing/kit';

/**
 * The flow builder's routes: queue integrations and phrase campaigns per docs/product/automation.md —
 * validation, secrets that never leave the server, admins only, the plan gate, live updates — and the SDK
 * walkers over them.
 */
let kit: FlowbuilderKit;
beforeAll(async () => {
  kit = await flowbuilderKit();
}, 120_000);
afterAll(() => kit?.close());

const serviceAccount = JSON.stringify({
  type: 'service_account',
  project_id: 'acme-bot',
  client_email: 'bot@acme-bot.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nsecret-material\n-----END PRIVATE KEY-----\n',
});

describe('queue integrations', () => {
  it('creates, lists, searches, changes and deletes, telling the admins live', async () => {
    const base = await kit.t.listen();
    const socket = await connectSocket(base, kit.acme, kit.adminToken);
    try {
      const created = await kit.api('POST', '/queueIntegration', {
        type: 'n8n',
        name: 'Pedidos n8n',
        urlN8N: 'https://n8n.example/hook',
      });
      expect(created).toMatchObject({
        status: 200,
        body: { type: 'n8n', name: 'Pedidos n8n', projectName: 'Pedidos n8n', typebotDelayMessage: 1000, typebotExpires: 1 },
      });
      const updated = nextEvent<{ action: string; queueIntegration: { id: number } }>(
        socket,
        `company-${kit.acme}-queueIntegration`,
        (payload) => payload.action === 'update',
        10_000,
      );
      await kit.api('PUT', `/queueIntegration/${created.body.id}`, {
        type: 'webhook',
        name: 'Pedidos',
        urlN8N: 'https://n8n.example/other',
      });
      const event = await updated;
      expect(event.queueIntegration).toMatchObject({ id: created.body.id, type: 'webhook', name: 'Pedidos' });
      const list = await kit.api('GET', '/queueIntegration?searchParam=pedi');
      expect(list.body).toMatchObject({ queueIntegrations: [{ id: created.body.id }], hasMore: false });
      expect((await kit.api('GET', '/queueIntegration?searchParam=nada')).body.queueIntegrations).toEqual([]);
      expect((await kit.api('DELETE', `/queueIntegration/${created.body.id}`)).status).toBe(204);
      expect(await kit.api('GET', `/queueIntegration/${created.body.id}`)).toMatchObject({
        status: 404,
        body: { error: 'ERR_NO_INTEGRATION_FOUND' },
      });
    } finally {
      socket.disconnect();
    }
  });

  it('seals the service account at rest and never answers it; an empty one on PUT keeps it', async () => {
    const created = await kit.api('POST', '/queueIntegration', {
      type: 'dialogflow',
      name: 'DF',
      language: 'pt-BR',
      jsonContent: serviceAccount,
    });
    expect(created.body).toMatchObject({ jsonContent: '', hasJsonContent: true, language: 'pt-BR' });
    const row = await kit.knex('queueIntegrations').where({ id: created.body.id }).first();
    expect(row.jsonContentSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('secret-material');
    const read = await kit.api('GET', `/queueIntegration/${created.body.id}`);
    expect(JSON.stringify(read.body)).not.toContain('secret-material');
    const kept = await kit.api('PUT', `/queueIntegration/${created.body.id}`, {
      type: 'dialogflow',
      name: 'DF 2',
      language: 'en',
      jsonContent: '',
    });
    expect(kept.body).toMatchObject({ name: 'DF 2', hasJsonContent: true });
    expect((await kit.knex('queueIntegrations').where({ id: created.body.id }).first()).jsonContentSealed).toBe(
      row.jsonContentSealed,
    );
  });

  it('refuses what an integration cannot run with', async () => {
    const refused = async (body: object, error: string) =>
      expect(await kit.api('POST', '/queueIntegration', body)).toMatchObject({ status: 400, body: { error } });
    await refused({ type: 'webhook', name: '   ', urlN8N: 'https://x.example' }, 'ERR_INTEGRATION_NAME_REQUIRED');
    await refused({ type: 'dialogflow', name: 'DF', jsonContent: serviceAccount }, 'ERR_INTEGRATION_LANGUAGE_REQUIRED');
    await refused(
      { type: 'dialogflow', name: 'DF', language: 'fr', jsonContent: serviceAccount },
      'ERR_INTEGRATION_LANGUAGE_REQUIRED',
    );
    await refused({ type: 'dialogflow', name: 'DF', language: 'es' }, 'ERR_INTEGRATION_CREDENTIALS_INVALID');
    await refused(
      { type: 'dialogflow', name: 'DF', language: 'es', jsonContent: '{"a":1}' },
      'ERR_INTEGRATION_CREDENTIALS_INVALID',
    );
    await refused({ type: 'n8n', name: 'n8n' }, 'ERR_INTEGRATION_URL_REQUIRED');
    await refused({ type: 'webhook', name: 'w', urlN8N: 'file:///etc/passwd' }, 'ERR_INTEGRATION_URL_REQUIRED');
    await refused({ type: 'typebot', name: 'tb', urlN8N: 'https://typebot.example' }, 'ERR_INTEGRATION_URL_REQUIRED');
    await refused({ type: 'zapier', name: 'z' }, 'ERR_VALIDATION');
  });

  it('pages by 20 with hasMore', async () => {
    for (let index = 0; index < 21; index += 1) {
      await kit.api('POST', '/queueIntegration', { type: 'flowbuilder', name: `Página ${String(index).padStart(2, '0')}` });
    }
    const first = await kit.api('GET', '/queueIntegration?searchParam=Página&pageNumber=1');
    expect(first.body.queueIntegrations).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await kit.api('GET', '/queueIntegration?searchParam=Página&pageNumber=2');
    expect(second.body).toMatchObject({ queueIntegrations: [{ name: 'Página 20' }], hasMore: false });
  });

  it('forgets a deleted integration wherever it was named', async () => {
    const created = await kit.api('POST', '/queueIntegration', { type: 'webhook', name: 'Apagar', urlN8N: 'https://x.example' });
    const [queue] = await kit
      .knex('queues')
      .insert({ companyId: kit.acme, name: 'Com bot', color: '#123456', integrationId: created.body.id })
      .returning('id');
    await kit.api('DELETE', `/queueIntegration/${created.body.id}`);
    expect((await kit.knex('queues').where({ id: queue.id }).first()).integrationId).toBeNull();
  });
});

describe('phrase campaigns', () => {
  it('creates (active by default), reads, changes and deletes; flow, connection, name and phrase required', async () => {
    const [flow] = await kit.knex('flowBuilders').insert({ companyId: kit.acme, name: 'Boas-vindas' }).returning('id');
    const [connection] = await kit
      .knex('whatsapps')
      .insert({ companyId: kit.acme, name: 'Conexão frases', channel: 'whatsapp', status: 'CONNECTED', token: 'tok-frases' })
      .returning('id');
    const created = await kit.api('POST', '/flowcampaign', {
      name: 'Promo',
      flowId: flow.id,
      whatsappId: connection.id,
      phrase: 'quero promoção',
    });
    expect(created).toMatchObject({ status: 200, body: { name: 'Promo', status: true, phrase: 'quero promoção' } });
    expect((await kit.api('GET', '/flowcampaign')).body.flow).toEqual([expect.objectContaining({ id: created.body.id })]);
    expect((await kit.api('GET', `/flowcampaign/${created.body.id}`)).body.details).toMatchObject({
      name: 'Promo',
      flowId: flow.id,
    });
    const changed = await kit.api('PUT', '/flowcampaign', {
      id: created.body.id,
      name: 'Promo 2',
      flowId: flow.id,
      whatsappId: connection.id,
      phrase: 'promo',
      status: false,
    });
    expect(changed.body).toMatchObject({ name: 'Promo 2', status: false });
    expect(
      await kit.api('POST', '/flowcampaign', { name: ' ', flowId: flow.id, whatsappId: connection.id, phrase: 'x' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'ERR_FLOW_CAMPAIGN_FIELDS_REQUIRED' },
    });
    expect(
      await kit.api('POST', '/flowcampaign', { name: 'x', flowId: 999_999, whatsappId: connection.id, phrase: 'x' }),
    ).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_FLOW_FOUND' },
    });
    expect((await kit.api('DELETE', `/flowcampaign/${created.body.id}`)).status).toBe(204);
    expect((await kit.api('GET', `/flowcampaign/${created.body.id}`)).status).toBe(404);
  });
});

describe('who may', () => {
  it('refuses users of profile user and companies without useIntegrations', async () => {
    const agent = await kit.t.login('agent@acme.test');
    expect((await kit.api('GET', '/queueIntegration', undefined, agent.token)).status).toBe(403);
    expect((await kit.api('GET', '/flowcampaign', undefined, agent.token)).status).toBe(403);
    const lite = await kit.t.login('admin@lite.test');
    expect(await kit.api('GET', '/queueIntegration', undefined, lite.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
    });
  });

  it('has every text in pt, en, es and tr, each error code’s included', () => {
    expect(translationProblems({ pt, en, es, tr })).toEqual([]);
    expect(Object.keys(flowbuilderErrors).filter((code) => !(code in pt.errors))).toEqual([]);
  });
});

describe('the SDK walkers over the flow builder’s routes', () => {
  it('keeps the route contract', () => {
    expect(routeContractProblems(kit.t, ownRoutes('flowbuilder'))).toEqual([]);
  });

  it('keeps tenants apart and refuses bad input', async () => {
    const fixtures = await seedTenantFixtures(kit.t);
    const tenants = await crossTenantWalk(kit.t, fixtures, ownRoutes('flowbuilder'));
    for (const found of [
      tenants.gaps,
      tenants.control,
      tenants.lists,
      tenants.reads,
      tenants.writes,
      tenants.otherWrites,
      tenants.foreignIds,
    ]) {
      expect(found).toEqual([]);
    }
    const input = await badInputWalk(kit.t, fixtures, ownRoutes('flowbuilder'));
    expect([...input.unbuildable, ...input.failures]).toEqual([]);
  }, 240_000);
});
