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
import type { FlowDocument } from '../../shared/flow-document';
import en from '../../ui/locales/en.json';
import es from '../../ui/locales/es.json';
import pt from '../../ui/locales/pt.json';
import tr from '../../ui/locales/tr.json';
import { flowbuilderErrors } from '../errors';
import { type FlowbuilderKit, flowbuilderKit, until } from '../testing/kit';
import { startStandIn } from '../testing/stand-ins';

/**
 * The flow builder's routes: queue integrations, phrase campaigns and flows per docs/product/automation.md —
 * validation, secrets that never leave the server, admins only, the plan gate, live updates — the flow
 * runtime against the real core, Postgres, Redis and bee-queue, and the SDK walkers over them all.
 */
let kit: FlowbuilderKit;
let listening: Promise<string> | undefined;
/** The app's address (it listens once, for the tests that connect sockets). */
const baseUrl = () => {
  listening ??= kit.t.listen();
  return listening;
};
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
    const base = await baseUrl();
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
      await kit.api('POST', '/queueIntegration', {
        type: 'webhook',
        name: `Página ${String(index).padStart(2, '0')}`,
        urlN8N: 'https://hook.example/page',
      });
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

describe('flows', () => {
  let connectionId: number;
  let salesQueueId: number;
  let otherCompanyQueueId: number;
  const at = { x: 0, y: 0 };
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  beforeAll(async () => {
    const [row] = await kit
      .knex('whatsapps')
      .insert({ companyId: kit.acme, name: 'Fluxos WA', channel: 'whatsapp', status: 'CONNECTED', token: `flows-${Date.now()}` })
      .returning('id');
    connectionId = Number(row.id);
    const [sales] = await kit.knex('queues').insert({ companyId: kit.acme, name: 'Vendas fluxo' }).returning('id');
    salesQueueId = Number(sales.id);
    const otherCompany = await kit.knex('companies').whereNot({ id: kit.acme }).orderBy('id').first('id');
    const [other] = await kit.knex('queues').insert({ companyId: otherCompany.id, name: 'Alheia' }).returning('id');
    otherCompanyQueueId = Number(other.id);
  });

  let boundaries = 0;
  function multipart(name: string, type: string, data: Buffer, field = 'file') {
    boundaries += 1;
    const boundary = `----flows${Date.now()}${boundaries}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  async function upload(path: string, name: string, type: string, data: Buffer) {
    const response = await kit.t.inject({
      method: 'POST',
      url: `/api${path}`,
      token: kit.adminToken,
      ...multipart(name, type, data),
    });
    return { status: response.statusCode, body: response.json() };
  }

  let customers = 0;
  /** A customer's text on the flows' connection. */
  async function say(number: string, body: string) {
    customers += 1;
    const result = await kit.inbox.receive({
      companyId: kit.acme,
      whatsappId: connectionId,
      channel: 'whatsapp',
      contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Cliente ${number.slice(-3)}` },
      message: { id: `flow-${Date.now().toString(36)}-${customers}`, body },
    });
    return result.ticketId;
  }

  /** The flow's messages on a ticket, in order (other automations may speak too). */
  const flowTexts = async (ticketId: number): Promise<string[]> =>
    kit
      .knex('messages')
      .where({ ticketId, fromMe: true })
      .whereRaw(`data_json->>'automation' LIKE 'flow:%'`)
      .orderBy('id')
      .pluck('body');
  const run = (ticketId: number) => kit.knex('flowRuns').where({ ticketId }).first();
  const waitTexts = (ticketId: number, count: number) =>
    until(async () => {
      const texts = await flowTexts(ticketId);
      return texts.length >= count ? texts : null;
    });

  async function newFlow(name: string, document: FlowDocument) {
    const created = await kit.api('POST', '/flowbuilder', { name });
    expect(created.status).toBe(200);
    const saved = await kit.api('POST', '/flowbuilder/flow', { idFlow: created.body.id, ...document });
    expect(saved.status).toBe(200);
    return created.body.id as number;
  }

  describe('the flows’ calls', () => {
    it('creates, renames, duplicates, lists, reads and deletes, telling the admins live', async () => {
      expect(await kit.api('POST', '/flowbuilder', { name: 'x' })).toMatchObject({
        status: 400,
        body: { error: 'ERR_FLOW_NAME_INVALID' },
      });
      const base = await baseUrl();
      const socket = await connectSocket(base, kit.acme, kit.adminToken);
      try {
        const announced = nextEvent<{ action: string; flow: { name: string } }>(
          socket,
          `company-${kit.acme}-flowbuilder`,
          (payload) => payload.action === 'create',
          10_000,
        );
        const created = await kit.api('POST', '/flowbuilder', { name: '  Vendas rápidas ' });
        expect(created.body).toMatchObject({ name: 'Vendas rápidas', active: true, flow: null });
        expect((await announced).flow.name).toBe('Vendas rápidas');
      } finally {
        socket.disconnect();
      }
      const id = (await kit.api('GET', '/flowbuilder?searchParam=rápidas')).body.flows[0].id;
      expect((await kit.api('PUT', '/flowbuilder', { flowId: id, name: 'Vendas' })).body).toMatchObject({ id, name: 'Vendas' });
      const copy = await kit.api('POST', '/flowbuilder/duplicate', { flowId: id });
      expect(copy.body).toMatchObject({ name: 'Vendas - cópia' });
      expect((await kit.api('GET', `/flowbuilder/flow/${copy.body.id}`)).body.flow).toMatchObject({
        id: copy.body.id,
        flow: null,
      });
      expect((await kit.api('DELETE', `/flowbuilder/${copy.body.id}`)).status).toBe(204);
      expect(await kit.api('GET', `/flowbuilder/${copy.body.id}`)).toMatchObject({
        status: 404,
        body: { error: 'ERR_NO_FLOW_FOUND' },
      });
    });

    it('saves a document only without errors, naming the node at fault; stores media within their limits', async () => {
      const id = (await kit.api('POST', '/flowbuilder', { name: 'Checado' })).body.id;
      const image = await upload('/flowbuilder/img', 'foto.png', 'image/png', png);
      expect(image.status).toBe(200);
      expect(await upload('/flowbuilder/img', 'nota.png', 'image/png', Buffer.from('not an image'))).toMatchObject({
        status: 400,
        body: { error: 'ERR_FLOW_MEDIA_TYPE' },
      });
      const huge = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
      expect(await upload('/flowbuilder/img', 'grande.png', 'image/png', huge)).toMatchObject({
        status: 400,
        body: { error: 'ERR_FLOW_MEDIA_TOO_LARGE' },
      });
      const document = (queueId: number, url: string): FlowDocument => ({
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'foto', type: 'img', position: at, data: { url } },
          { id: 'fila', type: 'ticket', position: at, data: { data: { id: queueId, name: 'Fila' } } },
          {
            id: 'solta',
            type: 'question',
            position: at,
            data: { typebotIntegration: { message: 'Idade?', answerKey: 'idade' } },
          },
        ],
        connections: [
          { source: '1', target: 'foto' },
          { source: 'foto', target: 'fila' },
        ],
      });
      const foreign = await kit.api('POST', '/flowbuilder/flow', {
        idFlow: id,
        ...document(otherCompanyQueueId, image.body.name),
      });
      expect(foreign).toMatchObject({ status: 400, body: { error: 'ERR_FLOW_INVALID', nodeId: 'fila', code: 'queueRequired' } });
      const missing = await kit.api('POST', '/flowbuilder/flow', {
        idFlow: id,
        ...document(salesQueueId, 'flowbuilder/nada.png'),
      });
      expect(missing).toMatchObject({ status: 400, body: { error: 'ERR_FLOW_INVALID', nodeId: 'foto', code: 'mediaMissing' } });
      const ai = document(salesQueueId, image.body.name);
      ai.nodes.push({
        id: 'ia',
        type: 'openai',
        position: at,
        data: { typebotIntegration: { name: 'IA', apiKey: 'k', prompt: '' } },
      });
      expect(await kit.api('POST', '/flowbuilder/flow', { idFlow: id, ...ai })).toMatchObject({
        status: 400,
        body: { nodeId: 'ia', code: 'openaiFieldsRequired' },
      });
      const saved = await kit.api('POST', '/flowbuilder/flow', { idFlow: id, ...document(salesQueueId, image.body.name) });
      expect(saved.status).toBe(200);
      expect(saved.body.problems.map((p: { nodeId: string; code: string }) => `${p.nodeId} ${p.code}`)).toEqual([
        'solta noWayOut',
        'solta unreachable',
        'solta variableNeverUsed',
      ]);
      expect((await kit.api('GET', `/flowbuilder/flow/${id}`)).body.flow.flow.nodes).toHaveLength(4);
    });
  });

  describe('the flow runtime', () => {
    it('walks a welcome flow: question, a menu repeated on a wrong answer, an interval, the queue hand-off, and its replay', async () => {
      const flowId = await newFlow('Boas-vindas teste', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'oi', type: 'message', position: at, data: { label: 'Olá, {{name}}!' } },
          {
            id: 'nome',
            type: 'question',
            position: at,
            data: { typebotIntegration: { message: 'Como se chama?', answerKey: 'nome' } },
          },
          {
            id: 'menu',
            type: 'menu',
            position: at,
            data: {
              message: '{{nome}}, escolha:',
              arrayOption: [
                { number: 1, value: 'Vendas' },
                { number: 2, value: 'Suporte' },
              ],
            },
          },
          { id: 'pausa', type: 'interval', position: at, data: { sec: 1 } },
          { id: 'fila', type: 'ticket', position: at, data: { data: { id: salesQueueId, name: 'Vendas' } } },
          { id: 'suporte', type: 'message', position: at, data: { label: 'Suporte: aguarde.' } },
        ],
        connections: [
          { source: '1', target: 'oi' },
          { source: 'oi', target: 'nome' },
          { source: 'nome', target: 'menu' },
          { source: 'menu', target: 'pausa', sourceHandle: 'a1' },
          { source: 'menu', target: 'suporte', sourceHandle: 'a2' },
          { source: 'pausa', target: 'fila' },
        ],
      });
      await kit
        .knex('whatsapps')
        .where({ id: connectionId })
        .update({ flowIdWelcome: flowId, flowIdNotPhrase: null, maxUseBotQueues: 3 });
      const number = '5531990001001';
      const ticketId = await say(number, 'oi');
      expect(await waitTexts(ticketId, 2)).toEqual(['Olá, Cliente 001!', 'Como se chama?']);
      expect(await kit.knex('tickets').where({ id: ticketId }).first('useIntegration')).toEqual({ useIntegration: true });
      await until(async () => (await run(ticketId))?.waitingFor === 'answer');
      await say(number, 'Ana');
      expect((await waitTexts(ticketId, 3))[2]).toBe('Ana, escolha:\n\n[1] Vendas\n[2] Suporte');
      await until(async () => (await run(ticketId))?.nodeId === 'menu');
      await say(number, 'talvez');
      expect((await waitTexts(ticketId, 4))[3]).toBe('Ana, escolha:\n\n[1] Vendas\n[2] Suporte');
      await say(number, ' VENDAS ');
      const done = await until(async () => {
        const row = await run(ticketId);
        return row?.status === 'done' ? row : null;
      });
      expect(done).toMatchObject({ endReason: 'queue', variables: { nome: 'Ana' } });
      expect(await kit.knex('tickets').where({ id: ticketId }).first('queueId', 'useIntegration', 'status')).toEqual({
        queueId: salesQueueId,
        useIntegration: false,
        status: 'pending',
      });
      expect(await flowTexts(ticketId)).toHaveLength(4);
      const path = await kit.api('GET', `/flowbuilder/runs/${ticketId}`);
      expect(path.body.flowId).toBe(flowId);
      expect(path.body.steps.map((step: { nodeId: string }) => step.nodeId)).toEqual([
        '1',
        'oi',
        'nome',
        'menu',
        'pausa',
        'fila',
      ]);
      expect(path.body.steps[3].variables).toMatchObject({ nome: 'Ana', name: 'Cliente 001' });
    });

    it('carries on an interval that fell due while paused once the toggle is back on', async () => {
      const flowId = await newFlow('Pausa teste', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'espera', type: 'interval', position: at, data: { sec: 1 } },
          { id: 'fim', type: 'message', position: at, data: { label: 'Voltamos.' } },
        ],
        connections: [
          { source: '1', target: 'espera' },
          { source: 'espera', target: 'fim' },
        ],
      });
      await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: flowId });
      const number = '5531990001005';
      const ticketId = await say(number, 'oi');
      await until(async () => (await run(ticketId))?.waitingFor === 'interval');
      await kit.api('PUT', `/tickets/${ticketId}`, { useIntegration: false });
      await until(async () => (await run(ticketId))?.status === 'paused');
      expect(await flowTexts(ticketId)).toEqual([]);
      await kit.api('PUT', `/tickets/${ticketId}`, { useIntegration: true });
      await say(number, 'voltei');
      expect(await waitTexts(ticketId, 1)).toEqual(['Voltamos.']);
      await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: null });
    });

    it('sixteen turns of one ticket at once wait for it without starving the pool', async () => {
      const flowId = await newFlow('Fila de turnos', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'oi', type: 'message', position: at, data: { label: 'Bem-vindo.' } },
        ],
        connections: [{ source: '1', target: 'oi' }],
      });
      await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: flowId, flowIdNotPhrase: null });
      const busy = await say('5531990001011', 'oi');
      await waitTexts(busy, 1);
      // more turns of one ticket than the pool has connections: none of them may hold one while it waits
      await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          kit.t.balcao.core.jobs.enqueue(
            'flowbuilder',
            'flow-step',
            { ticketId: busy, kind: 'resume' },
            { companyId: kit.acme, jobId: `pool-${busy}-${index}` },
          ),
        ),
      );
      const next = await say('5531990001012', 'oi');
      expect(await waitTexts(next, 1)).toEqual(['Bem-vindo.']);
      await until(async () => (await kit.knex('flowTurnLeases').whereIn('ticketId', [busy, next]).first()) === undefined);
      await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: null });
    });

    it('the sweeper stops the stale runs of a company without the plan and resumes the others', async () => {
      const lite = { id: kit.t.demo.companies.lite as number };
      const [contact] = await kit
        .knex('contacts')
        .insert({ companyId: lite.id, name: 'Sem plano', number: '5531990001021' })
        .returning('id');
      const [liteTicket] = await kit
        .knex('tickets')
        .insert({ companyId: lite.id, contactId: contact.id, status: 'pending' })
        .returning('id');
      const [liteFlow] = await kit.knex('flowBuilders').insert({ companyId: lite.id, name: 'Antigo' }).returning('id');
      const flowId = await newFlow('Retomada', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'oi', type: 'message', position: at, data: { label: 'Retomado.' } },
        ],
        connections: [{ source: '1', target: 'oi' }],
      });
      const acmeTicket = await say('5531990001022', 'oi');
      const stale = { nodeId: '1', status: 'running', step: 0, updatedAt: new Date(Date.now() - 60_000) };
      // the company without the plan first: its run once threw and held every other company's back
      await kit.knex('flowRuns').insert({ ticketId: liteTicket.id, companyId: lite.id, flowId: liteFlow.id, ...stale });
      await kit
        .knex('flowRuns')
        .insert({ ticketId: acmeTicket, companyId: kit.acme, flowId, ...stale, updatedAt: new Date(Date.now() - 50_000) });
      await kit.t.balcao.core.jobs.enqueue('flowbuilder', 'flow-sweep', {});
      expect(await waitTexts(acmeTicket, 1)).toEqual(['Retomado.']);
      expect(await run(liteTicket.id)).toMatchObject({ status: 'stopped', endReason: 'plan' });
    });

    it('consumes a message in the update that moves the run, never before the Typebot call answers', async () => {
      const typebot = await startStandIn();
      try {
        typebot.on('/api/v1/typebots/atendente/startChat', { body: { sessionId: 'sessao-1', messages: [] } });
        typebot.on('/api/v1/sessions/sessao-1/continueChat', { body: { messages: [] }, delayMs: 1_000 });
        const flowId = await newFlow('Typebot consumo', {
          nodes: [
            { id: '1', type: 'start', position: at, data: {} },
            {
              id: 'bot',
              type: 'typebot',
              position: at,
              data: { typebotIntegration: { name: 'Atendente', urlN8N: typebot.url, typebotSlug: 'atendente' } },
            },
          ],
          connections: [{ source: '1', target: 'bot' }],
        });
        await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: flowId, flowIdNotPhrase: null });
        const number = '5531990001031';
        const ticketId = await say(number, 'oi');
        await until(async () => (await run(ticketId))?.typebotSessionId === 'sessao-1');
        await say(number, 'quero ajuda');
        const answer = await kit.knex('messages').where({ ticketId, fromMe: false }).max('id as id').first();
        await until(async () => typebot.received.some((request) => request.path.endsWith('/continueChat')));
        // a process dying now must leave the answer to be given again
        expect(Number((await run(ticketId)).lastMessageId)).toBeLessThan(Number(answer?.id));
        await until(async () => Number((await run(ticketId))?.lastMessageId) === Number(answer?.id));
        await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: null });
      } finally {
        await typebot.close();
      }
    });

    it('replays only the latest run of a flow that ran twice on a ticket', async () => {
      const flowId = await newFlow('Repetido', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'fala', type: 'message', position: at, data: { label: 'De novo.' } },
        ],
        connections: [{ source: '1', target: 'fala' }],
      });
      const campaign = await kit.api('POST', '/flowcampaign', {
        name: 'Repete',
        flowId,
        whatsappId: connectionId,
        phrase: 'repetir',
      });
      const number = '5531990001041';
      const ticketId = await say(number, 'repetir');
      await until(async () => (await run(ticketId))?.status === 'done');
      await say(number, 'repetir');
      expect(await waitTexts(ticketId, 2)).toEqual(['De novo.', 'De novo.']);
      await until(async () => (await run(ticketId))?.status === 'done');
      const path = await kit.api('GET', `/flowbuilder/runs/${ticketId}`);
      expect(path.body.steps.map((step: { nodeId: string }) => step.nodeId)).toEqual(['1', 'fala']);
      expect((await kit.api('DELETE', `/flowcampaign/${campaign.body.id}`)).status).toBeLessThan(300);
    });

    it('starts on a phrase (contained, accents aside), pauses with the toggle, stops on accept and with the flow', async () => {
      const flowId = await newFlow('Promo teste', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          {
            id: 'cidade',
            type: 'question',
            position: at,
            data: { typebotIntegration: { message: 'Sua cidade?', answerKey: 'cidade' } },
          },
          { id: 'fim', type: 'message', position: at, data: { label: '{{cidade}} anotado.' } },
        ],
        connections: [
          { source: '1', target: 'cidade' },
          { source: 'cidade', target: 'fim' },
        ],
      });
      await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: null });
      expect(
        (await kit.api('POST', '/flowcampaign', { name: 'Promo', flowId, whatsappId: connectionId, phrase: 'Promoção' })).status,
      ).toBe(200);
      const number = '5531990001002';
      const ticketId = await say(number, 'quero a PROMOCAO de hoje');
      expect(await waitTexts(ticketId, 1)).toEqual(['Sua cidade?']);
      await until(async () => (await run(ticketId))?.waitingFor === 'answer');
      expect((await kit.api('PUT', `/tickets/${ticketId}`, { useIntegration: false })).status).toBe(200);
      await say(number, 'BH');
      await until(async () => (await run(ticketId))?.status === 'paused');
      expect(await flowTexts(ticketId)).toHaveLength(1);
      await kit.api('PUT', `/tickets/${ticketId}`, { useIntegration: true });
      await say(number, 'Belo Horizonte');
      expect((await waitTexts(ticketId, 2))[1]).toBe('Belo Horizonte anotado.');

      const second = '5531990001003';
      const other = await say(second, 'promoção!');
      await waitTexts(other, 1);
      await until(async () => (await run(other))?.waitingFor === 'answer');
      expect((await kit.api('PUT', `/tickets/${other}`, { status: 'open', queueId: salesQueueId })).status).toBe(200);
      expect(await until(async () => (await run(other))?.status === 'stopped' && (await run(other)))).toMatchObject({
        endReason: 'accepted',
      });
      await say(second, 'Recife');
      expect(await flowTexts(other)).toEqual(['Sua cidade?']);

      // deleting the flow takes its phrase campaign and its runs; their tickets go back to people
      const waiting = await say('5531990001004', 'promoção');
      await until(async () => (await run(waiting))?.waitingFor === 'answer');
      expect((await kit.api('DELETE', `/flowbuilder/${flowId}`)).status).toBe(204);
      expect(await run(waiting)).toBeUndefined();
      expect(await kit.knex('tickets').where({ id: waiting }).first('useIntegration')).toEqual({ useIntegration: false });
      expect(await kit.knex('flowCampaigns').where({ flowId }).first('id')).toBeUndefined();
    });

    it('a flowbuilder integration names its flow, and a queue or a connection handing a ticket to it starts that flow', async () => {
      const flowId = await newFlow('Fluxo integrado', {
        nodes: [
          { id: '1', type: 'start', position: at, data: {} },
          { id: 'oi', type: 'message', position: at, data: { label: 'Aqui é o fluxo da integração.' } },
        ],
        connections: [{ source: '1', target: 'oi' }],
      });
      const otherCompany = await kit.knex('companies').whereNot({ id: kit.acme }).orderBy('id').first('id');
      const [foreign] = await kit
        .knex('flowBuilders')
        .insert({ companyId: otherCompany.id, name: 'Alheio', active: true })
        .returning('id');
      const refused = { status: 400, body: { error: 'ERR_INTEGRATION_FLOW_REQUIRED' } };
      expect(await kit.api('POST', '/queueIntegration', { type: 'flowbuilder', name: 'Sem fluxo' })).toMatchObject(refused);
      expect(
        await kit.api('POST', '/queueIntegration', { type: 'flowbuilder', name: 'Alheio', flowId: Number(foreign.id) }),
      ).toMatchObject(refused);
      const created = await kit.api('POST', '/queueIntegration', { type: 'flowbuilder', name: 'Fluxo', flowId });
      expect(created).toMatchObject({ status: 200, body: { type: 'flowbuilder', flowId } });
      const integrationId = created.body.id as number;
      expect((await kit.api('GET', `/queueIntegration/${integrationId}`)).body.flowId).toBe(flowId);
      // a PUT without flowId keeps it; another company's flow is refused there too; other types keep none
      expect(
        (await kit.api('PUT', `/queueIntegration/${integrationId}`, { type: 'flowbuilder', name: 'Fluxo!' })).body,
      ).toMatchObject({ name: 'Fluxo!', flowId });
      expect(
        await kit.api('PUT', `/queueIntegration/${integrationId}`, {
          type: 'flowbuilder',
          name: 'Fluxo',
          flowId: Number(foreign.id),
        }),
      ).toMatchObject(refused);
      const hook = await kit.api('POST', '/queueIntegration', {
        type: 'webhook',
        name: 'Gancho',
        urlN8N: 'https://hook.example',
        flowId,
      });
      expect(hook.body.flowId).toBeNull();

      /** A connection of its own, with `fields`; a customer's first text on it. */
      const connectionWith = async (fields: Record<string, unknown>) => {
        const [row] = await kit
          .knex('whatsapps')
          .insert({
            companyId: kit.acme,
            name: 'Integração WA',
            channel: 'whatsapp',
            status: 'CONNECTED',
            token: `int-${Date.now()}-${customers}`,
            ...fields,
          })
          .returning('id');
        customers += 1;
        return Number(row.id);
      };
      const sayOn = async (whatsappId: number, number: string, body: string) => {
        customers += 1;
        const result = await kit.inbox.receive({
          companyId: kit.acme,
          whatsappId,
          channel: 'whatsapp',
          contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Cliente ${number.slice(-3)}` },
          message: { id: `int-${Date.now().toString(36)}-${customers}`, body },
        });
        return result.ticketId;
      };

      // the chatbot lands the ticket in the connection's only queue, which hands it to the integration: its flow speaks
      const queue = await kit.api('POST', '/queue', {
        name: 'Fila do fluxo',
        color: '#123123',
        greetingMessage: 'Fila do fluxo',
        integrationId,
        chatbots: [],
      });
      expect(queue.status).toBe(201);
      const byQueue = await connectionWith({});
      await kit.knex('whatsappQueues').insert({ companyId: kit.acme, whatsappId: byQueue, queueId: queue.body.id });
      const handed = await sayOn(byQueue, '5531990002001', 'oi');
      expect(await waitTexts(handed, 1)).toEqual(['Aqui é o fluxo da integração.']);
      expect(await until(async () => (await run(handed))?.status === 'done' && (await run(handed)))).toMatchObject({ flowId });
      expect(await kit.knex('tickets').where({ id: handed }).first('integrationId', 'queueId')).toEqual({
        integrationId: null,
        queueId: queue.body.id,
      });

      // a connection whose integration is it: a new ticket starts the flow, and the chatbot stays out
      const byConnection = await connectionWith({ integrationId });
      const opened = await sayOn(byConnection, '5531990002002', 'bom dia');
      expect(await waitTexts(opened, 1)).toEqual(['Aqui é o fluxo da integração.']);
      await until(async () => (await run(opened))?.status === 'done');
      expect(await kit.knex('messages').where({ ticketId: opened, fromMe: true }).pluck('body')).toEqual([
        'Aqui é o fluxo da integração.',
      ]);

      // the flow deleted, the integration names none: a ticket handed to it goes back to people
      expect((await kit.api('DELETE', `/flowbuilder/${flowId}`)).status).toBe(204);
      expect((await kit.api('GET', `/queueIntegration/${integrationId}`)).body.flowId).toBeNull();
      const back = await sayOn(byQueue, '5531990002003', 'oi');
      // handed over (the chatbot sets integrationId and the toggle), then handed back (the toggle off)
      await until(async () => {
        const ticket = await kit.knex('tickets').where({ id: back }).first('integrationId', 'useIntegration');
        return ticket.integrationId === integrationId && ticket.useIntegration === false;
      });
      expect(await run(back)).toBeUndefined();
    });
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
