import { connectSocket, nextEvent } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../shared/flow-document';
import { type FlowbuilderKit, flowbuilderKit, until } from '../testing/kit';

/**
 * Flows per docs/product/automation.md: the calls (create, rename, duplicate, delete, read, save with its
 * checks, media uploads), and the runtime — welcome flow with a question, a menu that repeats itself and an
 * interval, the hand-off to a queue, a phrase campaign, the integration toggle's pause, an agent's accept —
 * against the real core, Postgres, Redis and bee-queue.
 */
let kit: FlowbuilderKit;
let connectionId: number;
let salesQueueId: number;
let otherCompanyQueueId: number;
const at = { x: 0, y: 0 };
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  kit = await flowbuilderKit();
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
}, 120_000);
afterAll(() => kit?.close());

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
    const base = await kit.t.listen();
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
    expect((await kit.api('GET', `/flowbuilder/flow/${copy.body.id}`)).body.flow).toMatchObject({ id: copy.body.id, flow: null });
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
        { id: 'solta', type: 'question', position: at, data: { typebotIntegration: { message: 'Idade?', answerKey: 'idade' } } },
      ],
      connections: [
        { source: '1', target: 'foto' },
        { source: 'foto', target: 'fila' },
      ],
    });
    const foreign = await kit.api('POST', '/flowbuilder/flow', { idFlow: id, ...document(otherCompanyQueueId, image.body.name) });
    expect(foreign).toMatchObject({ status: 400, body: { error: 'ERR_FLOW_INVALID', nodeId: 'fila', code: 'queueRequired' } });
    const missing = await kit.api('POST', '/flowbuilder/flow', { idFlow: id, ...document(salesQueueId, 'flowbuilder/nada.png') });
    expect(missing).toMatchObject({ status: 400, body: { error: 'ERR_FLOW_INVALID', nodeId: 'foto', code: 'mediaMissing' } });
    const ai = document(salesQueueId, image.body.name);
    ai.nodes.push({
      id: 'ia',
      type: 'openai',
      position: at,
      data: { typebotIntegration: { name: 'IA', apiKey: 'k', prompt: 'p' } },
    });
    expect(await kit.api('POST', '/flowbuilder/flow', { idFlow: id, ...ai })).toMatchObject({
      status: 400,
      body: { nodeId: 'ia', code: 'openaiUnavailable' },
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
    expect(path.body.steps.map((step: { nodeId: string }) => step.nodeId)).toEqual(['1', 'oi', 'nome', 'menu', 'pausa', 'fila']);
    expect(path.body.steps[3].variables).toMatchObject({ nome: 'Ana', name: 'Cliente 001' });
  });

  it('starts on a phrase (contained, accents aside), pauses with the integration toggle, stops when an agent accepts', async () => {
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
    expect((await kit.api('PUT', `/tickets/${other}`, { status: 'open' })).status).toBe(200);
    expect(await until(async () => (await run(other))?.status === 'stopped' && (await run(other)))).toMatchObject({
      endReason: 'accepted',
    });
    await say(second, 'Recife');
    expect(await flowTexts(other)).toEqual(['Sua cidade?']);
  });
});
