/**
 * The Meta channels in a real browser (docs/meta.md), against the Graph stand-in: a Facebook page is
 * connected from the Connections page (Facebook Login through the stand-in's SDK, then `POST /facebook`), a
 * customer writes on Messenger (a signed webhook), the admin accepts the conversation in the inbox and
 * answers — the answer reaches the stand-in's Send API — and a message the Graph refuses is shown failed,
 * with why, in the conversation. On a WhatsApp Cloud ticket whose 24-hour window is closed, the composer
 * explains why and sends an approved template. Texts are the UI's Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MetaTestApp, startMetaApp } from '../plugins/meta/server/testing/kit';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CHANNELS = path.join(REPO_ROOT, 'plugins', 'channels');
const pt = JSON.parse(readFileSync(path.join(CHANNELS, 'ui', 'locales', 'pt.json'), 'utf8')) as {
  errors: Record<string, string>;
};

/**
 * A plugin's remote (the channels one carries the Meta error texts; the Meta one its login and composer
 * notice), built when older than its sources.
 */
function buildRemote(id: string): void {
  const root = path.join(REPO_ROOT, 'plugins', id);
  const output = path.join(root, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(root, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', `balcao_${id}`], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the ${id} remote failed (exit ${result.status})`);
}

let m: MetaTestApp;
let browser: Browser;
const opened: OpenedPage[] = [];
const userToken = 'EAAB-browser-user-token';

beforeAll(async () => {
  buildRemote('channels');
  buildRemote('meta');
  m = await startMetaApp({ hostDist: path.join(REPO_ROOT, 'host', 'dist') });
  browser = await launchBrowser();
}, 300_000);
afterEach(closeOpenedPages(opened, 'meta'));
afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('a Messenger conversation', () => {
  it('connects a page from the Connections page through the stand-in, answers a customer, and shows a refused message failed with why', async () => {
    const page = m.graph.addPage(userToken, { name: 'Página Navegador' });
    const admin = await m.t.login('admin@acme.test');
    const setup = await openPage(browser, m.url);
    opened.push(setup);
    await logInThroughUi(setup.page, m.url, 'admin@acme.test');
    await setup.page.waitForURL('**/tickets');

    // Connections → add → Facebook: the stand-in's SDK logs in, the page found is chosen and connected
    await setup.page.goto(`${m.url}/connections`);
    await setup.page.getByRole('button', { name: /Adicionar/ }).click();
    await setup.page.getByRole('menuitem', { name: 'Facebook' }).click();
    await setup.page.getByRole('button', { name: 'Continuar com o Facebook' }).click();
    const found = setup.page.getByTestId('meta-page').filter({ hasText: 'Página Navegador' });
    await expect.poll(() => found.getByRole('checkbox').isChecked()).toBe(true);
    await setup.page.getByRole('button', { name: 'Conectar' }).click();
    await setup.page.getByText('1 conexão criada').waitFor();
    await setup.page.getByTestId('meta-connected').filter({ hasText: 'Página Navegador' }).waitFor();
    expect(m.graph.subscribedPages.has(page.id)).toBe(true);
    // the login asked for the page's messages (the scope the SDK was called with)
    expect(await setup.page.evaluate(() => (globalThis as unknown as { FB: { _scope: string } }).FB._scope)).toContain(
      'pages_messaging',
    );
    await setup.page.getByRole('dialog').getByRole('button', { name: 'Fechar', exact: true }).last().click();
    await setup.page.getByText('Página Navegador').first().waitFor();
    expect(setup.pageErrors).toEqual([]);

    // an ownerless ticket is accepted into the accepting user's queue: the admin works one
    const knex = m.t.balcao.core.knex;
    const acme = m.t.demo.companies.acme as number;
    const [queue] = await knex('queues').insert({ companyId: acme, name: 'Messenger', color: '#1877F2' }).returning('id');
    await knex('userQueues').insert({ companyId: acme, userId: admin.user.id, queueId: queue.id });
    const psid = m.graph.nextId('7');
    m.graph.profiles.set(psid, { first_name: 'Cliente', last_name: 'Navegador' });
    const delivered = await m.graph.deliver(`${m.api}/meta/webhooks/facebook`, {
      object: 'page',
      entry: [
        {
          id: page.id,
          time: Date.now(),
          messaging: [
            {
              sender: { id: psid },
              recipient: { id: page.id },
              timestamp: Date.now(),
              message: { mid: `m_${Date.now()}`, text: 'Vocês entregam no sábado?' },
            },
          ],
        },
      ],
    });
    expect(delivered.status).toBe(200);

    // the admin's new queue is read at login: the inbox is opened by a fresh one
    const agent = await openPage(browser, m.url);
    opened.push(agent);
    await logInThroughUi(agent.page, m.url, 'admin@acme.test');
    await agent.page.waitForURL('**/tickets');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    const item = agent.page.getByTestId('ticket-item').filter({ hasText: 'Cliente Navegador' });
    await item.getByRole('button', { name: 'Aceitar' }).click();
    await agent.page.getByText('Vocês entregam no sábado?').last().waitFor();
    // the conversation says how long a reply may wait on this channel
    await agent.page.getByText(/24 horas/).waitFor();

    const composer = agent.page.getByLabel('Digite uma mensagem ou "/" para respostas rápidas');
    const sent = new Promise<{ body: Record<string, unknown> }>((resolve) => {
      m.graph.onSend = (message) => resolve(message);
    });
    await composer.fill('Entregamos sim, até as 14h.');
    await composer.press('Enter');
    // the composer signs an agent's messages by default (the agent's name in bold, then the text)
    expect((await sent).body).toMatchObject({
      recipient: { id: psid },
      messaging_type: 'RESPONSE',
      message: { text: '*Ana Admin:*\nEntregamos sim, até as 14h.' },
    });

    m.graph.sendFailures.push({ status: 400, code: 100, subcode: 2018001, message: 'No matching user found' });
    await composer.fill('Esta a Meta recusa.');
    await composer.press('Enter');
    await agent.page.getByText(pt.errors.ERR_META_SEND_REFUSED as string).waitFor({ timeout: 15_000 });
    expect(agent.pageErrors).toEqual([]);
  });
});

describe('a WhatsApp Cloud ticket whose 24-hour window is closed', () => {
  it('explains why in the composer and sends an approved template with its variables', async () => {
    const phone = m.graph.addPhoneNumber({ displayPhoneNumber: '+55 11 4000-5678' });
    m.graph.templates.set(phone.businessAccountId, [
      {
        name: 'retomada',
        language: 'pt_BR',
        status: 'APPROVED',
        category: 'UTILITY',
        body: 'Olá {{1}}, seu pedido {{2}} está pronto.',
      },
    ]);
    const admin = await m.t.login('admin@acme.test');
    const api = (method: string, route: string, body?: unknown) =>
      fetch(`${m.api}${route}`, {
        method,
        headers: { authorization: `Bearer ${admin.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const created = await api('POST', '/whatsapp', {
      name: 'Cloud Navegador',
      channel: 'whatsappapi',
      channelConfig: { phoneNumberId: phone.id, businessAccountId: phone.businessAccountId, token: phone.token },
    });
    expect(created.status).toBe(201);
    const whatsappId = ((await created.json()) as { id: number }).id;
    expect((await api('POST', `/whatsappsession/${whatsappId}`)).status).toBe(200);

    const customer = `5511${String(Date.now()).slice(-8)}`;
    const delivered = await m.graph.deliver(`${m.api}/meta/webhooks/whatsapp`, {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: phone.businessAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '551140005678', phone_number_id: phone.id },
                contacts: [{ wa_id: customer, profile: { name: 'Cliente Janela' } }],
                messages: [
                  {
                    from: customer,
                    id: `wamid.janela${Date.now()}`,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'text',
                    text: { body: 'Meu pedido ficou pronto?' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(delivered.status).toBe(200);
    const knex = m.t.balcao.core.knex;
    await expect.poll(() => knex('metaWindows').where({ whatsappId, identifier: customer }).first('identifier')).toBeDefined();
    // a day and more has passed since the customer wrote
    await knex('metaWindows')
      .where({ whatsappId, identifier: customer })
      .update({ lastInboundAt: new Date(Date.now() - 25 * 3_600_000) });
    const ticket = await knex('tickets').where({ whatsappId }).first('id');
    const state = await (await api('GET', `/meta/tickets/${ticket.id}/window`)).json();
    expect(state).toMatchObject({ windowed: true, open: false, whatsappId });

    const agent = await openPage(browser, m.url);
    opened.push(agent);
    await logInThroughUi(agent.page, m.url, 'admin@acme.test');
    await agent.page.waitForURL('**/tickets');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    await agent.page
      .getByTestId('ticket-item')
      .filter({ hasText: 'Cliente Janela' })
      .getByRole('button', { name: 'Aceitar' })
      .click();
    await agent.page.getByText('Meu pedido ficou pronto?').last().waitFor();

    const notice = agent.page.getByTestId('meta-window-closed');
    await notice.getByText('Janela de 24 horas fechada').waitFor();
    await notice.getByText(/só aceita texto livre até 24 horas/).waitFor();
    await notice.getByRole('button', { name: 'Enviar modelo' }).click();
    const dialog = agent.page.getByRole('dialog', { name: 'Enviar modelo aprovado' });
    await dialog.getByLabel('Modelo').click();
    await agent.page.getByTitle('retomada (pt_BR)').click();
    await dialog.getByLabel('Variável 1').fill('Ana');
    await dialog.getByLabel('Variável 2').fill('42');
    await dialog.getByTestId('meta-template-preview').getByText('Olá Ana, seu pedido 42 está pronto.').waitFor();
    const sent = new Promise<{ body: Record<string, unknown> }>((resolve) => {
      m.graph.onSend = (message) => resolve(message);
    });
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    expect((await sent).body).toMatchObject({
      to: customer,
      type: 'template',
      template: {
        name: 'retomada',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: '42' },
            ],
          },
        ],
      },
    });
    m.graph.onSend = null;
    await agent.page.getByText('Olá Ana, seu pedido 42 está pronto.').last().waitFor();
    expect(agent.pageErrors).toEqual([]);
  });
});
