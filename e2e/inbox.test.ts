/**
 * The Tickets screen in real browsers: two agents, each in their own browser context, against a real app
 * (Postgres, Redis, socket.io). Messages arrive through the inbox's one inbound entry, driven by the
 * fixture channel driver (the recording stand-in a channel plugin would be); texts are asserted in
 * Portuguese, the default.
 */
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inboxCtx, makeQueue } from '../modules/inbox/server/directory/testing/directory-rows';
import type { FixtureDriver } from '../modules/inbox/server/testing/fixture-driver';
import { fixtureInbound, inboxServiceOf, registerFixtureDriver } from '../modules/inbox/server/testing/fixture-driver';
import { REPO_ROOT } from './build-once';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let driver: FixtureDriver;
let queues: { vendas: number; suporte: number };
const opened: OpenedPage[] = [];
const WHATSAPP_ID = 1;

beforeAll(async () => {
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  const acme = t.demo.companies.acme;
  const knex = t.balcao.core.knex;
  // a second agent with the demo password: the one who receives the transfer
  const agent = await knex('users').where({ id: t.demo.users.acmeAgent }).first();
  const [second] = await knex('users')
    .insert({ ...agent, id: undefined, name: 'Bruna Agente', email: 'agent2@acme.test', online: false })
    .returning('id');
  const vendas = await makeQueue(t, acme, 'Vendas', [t.demo.users.acmeAgent]);
  const suporte = await makeQueue(t, acme, 'Suporte', [second.id]);
  queues = { vendas: vendas.id, suporte: suporte.id };
  ({ driver } = registerFixtureDriver(t));
  baseUrl = await t.listen();
  browser = await launchBrowser();
});

afterEach(closeOpenedPages(opened, 'inbox'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl);
  opened.push(page);
  return page;
}

/** Logs in and waits for the Tickets screen's tabs. */
async function openTickets(email: string): Promise<OpenedPage> {
  const opened = await open();
  await logInThroughUi(opened.page, baseUrl, email);
  await opened.page.waitForURL('**/tickets');
  await opened.page.getByRole('tab', { name: /Atendendo/ }).waitFor();
  return opened;
}

const item = (page: Page, name: string) => page.getByTestId('ticket-item').filter({ hasText: name });

async function ticketOf(contactName: string) {
  return t.balcao.core
    .knex('tickets as t')
    .join('contacts as c', 'c.id', 't.contactId')
    .where('c.name', contactName)
    .orderBy('t.id', 'desc')
    .first('t.id', 't.uuid', 't.status', 't.userId', 't.queueId');
}

/** Picks an option of the antd select labelled `label` inside `scope`. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
}

describe('the Tickets screen', () => {
  it('lets an agent accept a ticket that arrived through the channel, reply and transfer it, live for the other agent', async () => {
    const first = await openTickets('agent@acme.test');
    const second = await openTickets('agent2@acme.test');

    await inboxServiceOf(t).receive(
      fixtureInbound(t.demo.companies.acme, WHATSAPP_ID, {
        number: '5511912345678',
        name: 'Cliente Teste',
        body: 'Olá, preciso de ajuda com meu pedido',
        queueId: queues.vendas,
      }),
    );

    // the pending ticket of the agent's queue arrives on its own in the Aguardando tab
    await first.page.getByRole('tab', { name: /Aguardando/ }).click();
    await item(first.page, 'Cliente Teste').waitFor();
    await item(first.page, 'Cliente Teste').getByRole('button', { name: 'Aceitar' }).click();
    const ticket = await ticketOf('Cliente Teste');
    await first.page.waitForURL(`**/tickets/${ticket.uuid}`);
    await first.page.getByText('Olá, preciso de ajuda com meu pedido').waitFor();
    await expect.poll(async () => (await ticketOf('Cliente Teste')).status).toBe('open');

    // the reply leaves through the channel driver, signed (sendSignMessage is on, and so is the agent's toggle)
    const composer = first.page.getByLabel('Digite uma mensagem ou "/" para respostas rápidas');
    await composer.fill('Claro! Vou verificar agora mesmo.');
    await composer.press('Enter');
    await driver.waitFor(() =>
      driver.sent.some((sent) => sent.message.body === '*Alex Agente:*\nClaro! Vou verificar agora mesmo.'),
    );
    await first.page.getByText('Claro! Vou verificar agora mesmo.').waitFor();

    // transfer to Suporte with the second agent: it leaves the first agent's list and appears in the other's
    await first.page.getByRole('button', { name: 'Transferir' }).first().click();
    const dialog = first.page.getByRole('dialog', { name: 'Transferir atendimento' });
    await dialog.waitFor();
    await choose(first.page, 'Fila', 'Suporte');
    await choose(first.page, 'Usuário', 'Bruna Agente');
    await dialog.getByRole('button', { name: 'Transferir' }).click();

    await expect.poll(async () => (await ticketOf('Cliente Teste')).queueId).toBe(queues.suporte);
    await second.page.getByRole('tab', { name: /Atendendo/ }).click();
    await item(second.page, 'Cliente Teste').waitFor();
    await first.page.getByRole('tab', { name: /Atendendo/ }).click();
    await expect.poll(() => item(first.page, 'Cliente Teste').count()).toBe(0);
    expect(first.pageErrors).toEqual([]);
    expect(second.pageErrors).toEqual([]);
  });

  it("fills a quick reply's variables: the composer previews them and the customer receives them filled", async () => {
    const acme = t.demo.companies.acme;
    await t.balcao.core.knex('quickMessages').insert({
      companyId: acme,
      userId: t.demo.users.acmeAgent,
      shortcode: 'bomdia',
      message: 'Bom dia, {{name}}! Fila {{queue}}.',
      geral: true,
      visao: true,
      status: true,
    });
    await inboxServiceOf(t).receive(
      fixtureInbound(acme, WHATSAPP_ID, {
        number: '5511933332222',
        name: 'Carla Souza',
        body: '*Urgente:* preciso _hoje_ ~amanhã~ ```PED-1``` <b onmouseover="window.__xss=1">x</b>',
        queueId: queues.vendas,
      }),
    );
    const agent = await openTickets('agent@acme.test');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    // WhatsApp's markup shows as emphasis in the list's preview and in the conversation; HTML stays text
    await item(agent.page, 'Carla Souza').locator('strong').getByText('Urgente:').waitFor();
    await item(agent.page, 'Carla Souza').getByRole('button', { name: 'Aceitar' }).click();
    const ticket = await ticketOf('Carla Souza');
    await agent.page.waitForURL(`**/tickets/${ticket.uuid}`);
    const bubble = agent.page.getByTestId('message').filter({ hasText: 'preciso' });
    await bubble.locator('strong').getByText('Urgente:').waitFor();
    expect(await bubble.locator('em').innerText()).toBe('hoje');
    expect(await bubble.locator('s').innerText()).toBe('amanhã');
    expect(await bubble.locator('code').innerText()).toBe('PED-1');
    expect(await bubble.locator('b').count()).toBe(0);
    expect(await bubble.innerText()).toContain('<b onmouseover');

    const composer = agent.page.getByLabel('Digite uma mensagem ou "/" para respostas rápidas');
    await composer.fill('/bomd');
    await agent.page.getByRole('option').filter({ hasText: 'bomdia' }).first().click();
    await expect.poll(() => composer.inputValue()).toBe('Bom dia, {{name}}! Fila {{queue}}.');
    await expect
      .poll(() => agent.page.getByTestId('composer-preview').innerText())
      .toMatch(/^Será enviado:\s*Bom dia, Carla Souza! Fila Vendas\.$/);
    await agent.page.getByRole('button', { name: 'Assinar mensagens' }).click();
    await composer.press('Enter');
    await driver.waitFor(() => driver.sent.some((sent) => sent.message.body === 'Bom dia, Carla Souza! Fila Vendas.'));
    const stored = await t.balcao.core
      .knex('messages')
      .where({ ticketId: ticket.id, fromMe: true })
      .orderBy('id', 'desc')
      .first('body');
    expect(stored.body).toBe('Bom dia, Carla Souza! Fila Vendas.');
    await agent.page.getByText('Bom dia, Carla Souza! Fila Vendas.').waitFor();
    expect(agent.pageErrors).toEqual([]);
  });

  it('marks a message on a disconnected connection failed with why, and sends it on retry once connected', async () => {
    const acme = t.demo.companies.acme;
    const knex = t.balcao.core.knex;
    const [connection] = await knex('whatsapps')
      // an id of its own: the other tests' messages arrive on connection 1, which has no row
      .insert({
        id: 700_000 + Math.floor(Math.random() * 100_000),
        companyId: acme,
        name: 'Celular Vendas',
        channel: 'whatsapp',
        status: 'DISCONNECTED',
        token: `e2e${Date.now()}`,
      })
      .returning('id');
    await inboxServiceOf(t).receive(
      fixtureInbound(acme, connection.id, { number: '5511977776666', name: 'Davi Lima', queueId: queues.vendas }),
    );
    const agent = await openTickets('agent@acme.test');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    await item(agent.page, 'Davi Lima').getByRole('button', { name: 'Aceitar' }).click();
    const ticket = await ticketOf('Davi Lima');
    await agent.page.waitForURL(`**/tickets/${ticket.uuid}`);

    const composer = agent.page.getByLabel('Digite uma mensagem ou "/" para respostas rápidas');
    await agent.page.getByRole('button', { name: 'Assinar mensagens' }).click();
    await composer.fill('Tem alguém aí?');
    await composer.press('Enter');
    await agent.page.getByText('Esta sessão do WhatsApp não foi inicializada. Verifique a página de conexões.').waitFor();
    expect(driver.sent.some((sent) => sent.message.body === 'Tem alguém aí?')).toBe(false);

    // the phone is back: the retry sends it (after the connection's cached profile expires)
    await knex('whatsapps').where({ id: connection.id }).update({ status: 'CONNECTED' });
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    await agent.page.getByRole('button', { name: 'Reenviar' }).click();
    await driver.waitFor(() => driver.sent.some((sent) => sent.message.body === 'Tem alguém aí?'));
    await expect.poll(() => agent.page.getByRole('button', { name: 'Reenviar' }).count()).toBe(0);
    expect(agent.pageErrors).toEqual([]);
  });

  it('refuses to resolve a ticket whose contact has no tag while requiredTag is on', async () => {
    const ctx = inboxCtx(t);
    await ctx.settings.set(t.demo.companies.acme, 'requiredTag', 'enabled');
    await inboxServiceOf(t).receive(
      fixtureInbound(t.demo.companies.acme, WHATSAPP_ID, { number: '5511955554444', name: 'Sem Tag', queueId: queues.vendas }),
    );
    const agent = await openTickets('agent@acme.test');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    await item(agent.page, 'Sem Tag').getByRole('button', { name: 'Aceitar' }).click();
    const ticket = await ticketOf('Sem Tag');
    await agent.page.waitForURL(`**/tickets/${ticket.uuid}`);

    await agent.page.getByTestId('ticket-header').getByRole('button', { name: 'Resolver', exact: true }).click();
    await agent.page.getByRole('button', { name: 'Resolver sem despedida' }).click();
    await agent.page.getByText('Adicione uma tag ao contato antes de resolver o atendimento.').waitFor();
    expect((await ticketOf('Sem Tag')).status).toBe('open');

    // with a tag on the contact the same action resolves it
    const token = await agent.page.evaluate<string | null>("localStorage.getItem('token')");
    const contact = await t.balcao.core.knex('contacts').where({ name: 'Sem Tag' }).first('id');
    const synced = await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: token ?? undefined,
      payload: { contactId: contact.id, tags: [{ name: 'Cliente fiel' }] },
    });
    expect(synced.statusCode).toBe(200);
    await agent.page.getByTestId('ticket-header').getByRole('button', { name: 'Resolver', exact: true }).click();
    await agent.page.getByRole('button', { name: 'Resolver sem despedida' }).click();
    await expect.poll(async () => (await ticketOf('Sem Tag')).status).toBe('closed');
    await agent.page.waitForURL('**/tickets');
    await ctx.settings.set(t.demo.companies.acme, 'requiredTag', 'disabled');
  });
});
