import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebchatMessage } from '../../shared/webchat';
import { DEMO_SUPPORT_WIDGET_KEY, DEMO_WIDGET_KEY, WEBCHAT_DEMO_PORT } from '../demo/constants';
import { channelsCtx } from '../testing/kit';
import { DEMO_WHATSAPP_NAME } from '../whatsapp/seed';
import { seedSupportChatDemo, seedWebchatDemo } from './seed';
import { WIDGET_SCRIPT_PATH } from './support-chat';

/**
 * Acme's demo website chat as `npm start` seeds it (every feature's demo data, so Acme's queues Vendas,
 * Suporte and Financeiro with their chatbot, and the flow builder's welcome flow on Site Acme): a visitor of the
 * demo page is walked into the welcome flow.
 */
let t: TestApp;
const ORIGIN = `http://127.0.0.1:${WEBCHAT_DEMO_PORT}`;
const api = (path: string) => `/api/webchat/${DEMO_WIDGET_KEY}/${path}`;

beforeAll(async () => {
  t = await createTestApp({ demoData: true });
});
afterAll(async () => {
  await t?.close();
});

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Acme demo website chat', () => {
  it('is seeded once: Site Acme on Acme’s queues, CONNECTED, allowing the demo page', async () => {
    const knex = t.balcao.core.knex;
    const id = await seedWebchatDemo(channelsCtx(t), t.demo);
    expect(await seedWebchatDemo(channelsCtx(t), t.demo)).toBe(id);
    const row = await knex('whatsapps').where({ id }).first();
    expect(row).toMatchObject({ name: 'Site Acme', channel: 'webchat', status: 'CONNECTED', companyId: t.demo.companies.acme });
    const queues = await knex('whatsappQueues').where({ whatsappId: id }).count('* as n').first();
    expect(Number(queues?.n)).toBeGreaterThanOrEqual(3);
    const config = await t.inject({
      method: 'GET',
      url: api('config'),
      headers: { origin: `http://localhost:${WEBCHAT_DEMO_PORT}` },
    });
    expect(config.statusCode).toBe(200);
    expect(config.json()).toMatchObject({ online: true, prechat: { name: 'required', email: 'optional', phone: 'off' } });
  });

  it('walks a new visitor into Acme’s welcome flow, as bot messages, with no chatbot menu over it', async () => {
    const created = await t.inject({
      method: 'POST',
      url: api('sessions'),
      headers: { origin: ORIGIN },
      payload: { name: 'Dora' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const headers = { origin: ORIGIN, authorization: `Bearer ${created.json().sessionToken}` };
    const sent = await t.inject({
      method: 'POST',
      url: api('messages'),
      headers,
      payload: { clientId: randomUUID(), body: 'Olá!' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // the flow greets and asks its question, then waits for the answer
    const bot = await waitFor(async () => {
      const page = await t.inject({ method: 'GET', url: api('messages'), headers });
      const said = (page.json().messages as WebchatMessage[]).filter((message) => message.author === 'bot');
      return said.length >= 2 ? said : undefined;
    });
    expect(bot.map((message) => message.body)).toEqual([
      'Olá, Dora! Sou o assistente da Acme.',
      'Em poucas palavras, qual é o assunto?',
    ]);
    expect(bot[0]?.authorName).toBeNull();
  });

  it('gives the demo’s WhatsApp conversations a DISCONNECTED demo connection, on which a message fails with why', async () => {
    const knex = t.balcao.core.knex;
    const acme = t.demo.companies.acme;
    const connection = await knex('whatsapps').where({ companyId: acme, channel: 'whatsapp', name: DEMO_WHATSAPP_NAME }).first();
    expect(connection).toMatchObject({ status: 'DISCONNECTED', isDefault: false });
    expect(
      await knex('tickets').where({ companyId: acme, channel: 'whatsapp' }).whereNull('whatsappId').first('id'),
    ).toBeUndefined();
    const ticket = await knex('tickets').where({ companyId: acme, channel: 'whatsapp', status: 'open', isGroup: false }).first();
    expect(ticket.whatsappId).toBe(connection.id);
    const admin = await t.login('admin@acme.test');
    const sent = await t.inject({
      method: 'POST',
      url: `/api/messages/${ticket.id}`,
      token: admin.token,
      payload: { body: 'Alguém aí?' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().messages[0].id as number;
    const settled = await waitFor(async () => {
      const row = await knex('messages').where({ id }).first('sendStatus', 'sendError');
      return row.sendStatus === 'pending' ? undefined : row;
    });
    expect(settled).toEqual({ sendStatus: 'failed', sendError: 'ERR_WAPP_NOT_INITIALIZED' });
  });
});

describe("the platform's demo support chat", () => {
  it('is seeded once on the platform company and is what the login page opens', async () => {
    const id = await seedSupportChatDemo(channelsCtx(t), t.demo);
    expect(await seedSupportChatDemo(channelsCtx(t), t.demo)).toBe(id);
    const row = await t.balcao.core.knex('whatsapps').where({ id }).first('companyId', 'channel', 'status', 'name');
    expect(row).toEqual({
      companyId: t.demo.companies.platform,
      channel: 'webchat',
      status: 'CONNECTED',
      name: 'Suporte Balcão',
    });
    const answer = await t.inject({ method: 'GET', url: '/api/support-chat' });
    expect(answer.json()).toEqual({ widgetKey: DEMO_SUPPORT_WIDGET_KEY, scriptUrl: WIDGET_SCRIPT_PATH });
    // any origin: the login page is wherever Balcão is served
    const config = await t.inject({
      method: 'GET',
      url: `/api/webchat/${DEMO_SUPPORT_WIDGET_KEY}/config`,
      headers: { origin: 'https://balcao.example' },
    });
    expect(config.statusCode, config.body).toBe(200);
  });
});
