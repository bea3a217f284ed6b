import { type OpenAiStandIn, startOpenAiStandIn } from '@balcao/plugin-sdk/testing/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../shared/flow-document';
import { type FlowbuilderKit, flowbuilderKit, until } from '../testing/kit';

/**
 * The openai node through the AI plugin's `ai` service, against the AI plugin's OpenAI-compatible stand-in:
 * the node's key is stored sealed and answered masked, a masked key saved unchanged keeps it, the node is
 * refused without the plan's useOpenAi, and at run time the model answers with the ticket's last messages,
 * hands over on its marker, and a provider failure or the monthly cap send the ticket back to its queue.
 */
let kit: FlowbuilderKit;
let standIn: OpenAiStandIn;
let connectionId: number;
const at = { x: 0, y: 0 };

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  kit = await flowbuilderKit();
  const [row] = await kit
    .knex('whatsapps')
    .insert({ companyId: kit.acme, name: 'Fluxos IA', channel: 'whatsapp', status: 'CONNECTED', token: `ia-${Date.now()}` })
    .returning('id');
  connectionId = Number(row.id);
}, 120_000);
afterAll(async () => {
  await kit?.close();
  await standIn?.close();
});

function aiFlow(settings: Record<string, unknown>): FlowDocument {
  return {
    nodes: [
      { id: '1', type: 'start', position: at, data: {} },
      { id: 'oi', type: 'message', position: at, data: { label: 'Bem-vindo!' } },
      {
        id: 'ia',
        type: 'openai',
        position: at,
        data: {
          typebotIntegration: {
            name: 'Robô',
            prompt: 'Você atende {{name}} na Acme.',
            apiKey: 'sk-flow-5678',
            baseUrl: standIn.url,
            maxMessages: 2,
            maxTokens: 60,
            temperature: 0.4,
            ...settings,
          },
        },
      },
    ],
    connections: [
      { source: '1', target: 'oi' },
      { source: 'oi', target: 'ia' },
    ],
  } as FlowDocument;
}

async function savedFlow(name: string, document: FlowDocument): Promise<number> {
  const created = await kit.api('POST', '/flowbuilder', { name });
  expect((await kit.api('POST', '/flowbuilder/flow', { idFlow: created.body.id, ...document })).status).toBe(200);
  await kit.knex('whatsapps').where({ id: connectionId }).update({ flowIdWelcome: created.body.id });
  return created.body.id;
}

let customers = 0;
async function say(number: string, body: string): Promise<number> {
  customers += 1;
  const result = await kit.inbox.receive({
    companyId: kit.acme,
    whatsappId: connectionId,
    channel: 'whatsapp',
    contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Cliente ${number.slice(-2)}` },
    message: { id: `ia-${Date.now().toString(36)}-${customers}`, body },
  });
  return result.ticketId;
}

/** What the flow sent on a ticket, in order. */
const flowTexts = (ticketId: number): Promise<string[]> =>
  kit
    .knex('messages')
    .where({ ticketId, fromMe: true })
    .whereRaw(`data_json->>'automation' LIKE 'flow:%'`)
    .orderBy('id')
    .pluck('body');
const run = (ticketId: number) => kit.knex('flowRuns').where({ ticketId }).first();
const storedNode = async (flowId: number) =>
  ((await kit.knex('flowBuilders').where({ id: flowId }).first('flow')).flow as FlowDocument).nodes.find(
    (node) => node.id === 'ia',
  ) as Extract<FlowDocument['nodes'][number], { type: 'openai' }>;

describe('saving an openai node', () => {
  it('stores the key sealed, answers it masked, keeps it when saved masked, and wants it again elsewhere', async () => {
    const flowId = await savedFlow('IA salva', aiFlow({}));
    const sealed = (await storedNode(flowId)).data.typebotIntegration.apiKey;
    expect(sealed).toMatch(/^v1\./);
    expect(JSON.stringify(await kit.knex('flowBuilders').where({ id: flowId }).first('flow'))).not.toContain('sk-flow');

    const read = await kit.api('GET', `/flowbuilder/flow/${flowId}`);
    expect(read.body.openaiAvailable).toBe(true);
    const shown = read.body.flow.flow as FlowDocument;
    const node = shown.nodes.find((candidate) => candidate.id === 'ia') as Extract<
      FlowDocument['nodes'][number],
      { type: 'openai' }
    >;
    expect(node.data.typebotIntegration.apiKey).toBe('••••••5678');
    expect(JSON.stringify(read.body)).not.toContain(sealed);

    const again = await kit.api('POST', '/flowbuilder/flow', { idFlow: flowId, ...shown });
    expect(again.status).toBe(200);
    expect(JSON.stringify(again.body)).not.toContain(sealed);
    expect((await storedNode(flowId)).data.typebotIntegration.apiKey).toBe(sealed);

    // the stored key goes to no address it wasn't typed for
    node.data.typebotIntegration.baseUrl = 'http://127.0.0.2:9/v1';
    expect(await kit.api('POST', '/flowbuilder/flow', { idFlow: flowId, ...shown })).toMatchObject({
      status: 400,
      body: { error: 'ERR_FLOW_INVALID', nodeId: 'ia', code: 'openaiFieldsRequired' },
    });
    expect(await kit.api('POST', '/flowbuilder/flow', { idFlow: flowId, ...aiFlow({ prompt: ' ' }) })).toMatchObject({
      status: 400,
      body: { nodeId: 'ia', code: 'openaiFieldsRequired' },
    });
    expect((await storedNode(flowId)).data.typebotIntegration.apiKey).toBe(sealed);
  });

  it('is refused while the plan lacks useOpenAi, and the editor is told', async () => {
    const created = await kit.api('POST', '/flowbuilder', { name: 'IA sem plano' });
    const { planId } = await kit.knex('companies').where({ id: kit.acme }).first('planId');
    const sessions = kit.t.balcao.core.sessions;
    await kit.knex('plans').where({ id: planId }).update({ useOpenAi: false });
    await sessions.invalidateCompany(kit.acme);
    try {
      expect(await kit.api('POST', '/flowbuilder/flow', { idFlow: created.body.id, ...aiFlow({}) })).toMatchObject({
        status: 400,
        body: { error: 'ERR_FLOW_INVALID', nodeId: 'ia', code: 'openaiUnavailable' },
      });
      expect((await kit.api('GET', `/flowbuilder/flow/${created.body.id}`)).body.openaiAvailable).toBe(false);
    } finally {
      await kit.knex('plans').where({ id: planId }).update({ useOpenAi: true });
      await sessions.invalidateCompany(kit.acme);
    }
  });
});

describe('an openai node at work', () => {
  it('answers with the last maxMessages as context, converses, and hands over on the marker', async () => {
    await savedFlow('IA conversa', aiFlow({}));
    const number = '5531990007001';
    const chats = standIn.chats.length;
    const ticketId = await say(number, 'oi');
    await until(async () => (await flowTexts(ticketId)).length >= 2);
    expect(await flowTexts(ticketId)).toEqual(['Bem-vindo!', 'Assistente: recebi "oi".']);
    const first = standIn.chats[chats];
    expect(first?.apiKey).toBe('sk-flow-5678');
    expect(first?.body).toMatchObject({ max_tokens: 60, temperature: 0.4 });
    expect(first?.body.messages[0]?.content.startsWith('Você atende Cliente 01 na Acme.')).toBe(true);
    expect(first?.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'oi' },
      { role: 'assistant', content: 'Bem-vindo!' },
    ]);
    const automation = await kit
      .knex('messages')
      .where({ ticketId, fromMe: true })
      .orderBy('id', 'desc')
      .first(kit.knex.raw(`data_json->>'automation' AS automation`));
    expect(automation.automation).toMatch(/^flow:\d+:ia:\d+$/);
    expect(await run(ticketId)).toMatchObject({ status: 'waiting', waitingFor: 'openai' });

    await say(number, 'qual o horário?');
    await until(async () => (await flowTexts(ticketId)).length >= 3);
    expect((await flowTexts(ticketId))[2]).toBe('Assistente: recebi "qual o horário?".');

    await say(number, 'é um assunto delicado');
    const done = await until(async () => {
      const row = await run(ticketId);
      return row?.status === 'done' ? row : null;
    });
    expect(done.endReason).toBe('openai handed over');
    expect((await flowTexts(ticketId)).at(-1)).toBe('Vou chamar uma pessoa da equipe.');
    // the run ends first, then the ticket goes back to its queue: wait for both
    expect(
      await until(async () => {
        const ticket = await kit.knex('tickets').where({ id: ticketId }).first('useIntegration', 'status');
        return ticket?.useIntegration === false ? ticket : null;
      }),
    ).toEqual({ useIntegration: false, status: 'pending' });
  });

  it('sends the ticket back to its queue when the provider fails or the month’s cap is spent', async () => {
    await savedFlow('IA falha', aiFlow({ apiKey: 'sk-500' }));
    const failing = await say('5531990007002', 'oi');
    const failed = await until(async () => {
      const row = await run(failing);
      return row?.status === 'failed' ? row : null;
    });
    expect(failed.endReason).toBe('openai: ERR_AI_PROVIDER_FAILED');
    // the run ends first, then the ticket goes back to its queue: wait for both
    expect(
      await until(async () => {
        const ticket = await kit.knex('tickets').where({ id: failing }).first('useIntegration', 'status');
        return ticket?.useIntegration === false ? ticket : null;
      }),
    ).toEqual({ useIntegration: false, status: 'pending' });

    await savedFlow('IA teto', aiFlow({}));
    await kit.knex('aiCompanySettings').insert({ companyId: kit.acme, monthlyTokenCap: 1 }).onConflict('companyId').merge();
    try {
      const chats = standIn.chats.length;
      const capped = await say('5531990007003', 'oi');
      const stopped = await until(async () => {
        const row = await run(capped);
        return row?.status === 'failed' ? row : null;
      });
      expect(stopped.endReason).toBe('openai: ERR_AI_TOKEN_CAP_REACHED');
      expect(standIn.chats.length).toBe(chats);
      expect(await flowTexts(capped)).toEqual(['Bem-vindo!']);
    } finally {
      await kit.knex('aiCompanySettings').where({ companyId: kit.acme }).delete();
    }
  });
});
