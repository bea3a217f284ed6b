/**
 * The chat widget in real browsers (docs/channels/widget.md): a visitor on the demo shop page (its
 * own origin) opens the widget, fills the pre-chat form, gets the chatbot menu and picks a queue; an agent
 * (a second browser context, logged into the shell) accepts the ticket in the inbox and replies; the
 * visitor sees the reply live, the badge counts while closed, and a reload keeps the conversation. A page
 * of an origin the connection doesn't allow shows the widget's error state. Texts are asserted in
 * Portuguese, the demo page's language.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeQueue } from '../modules/inbox/server/directory/testing/directory-rows';
import { DEMO_WIDGET_KEY } from '../plugins/channels/server/demo/constants';
import { startWebchatDemoPage } from '../plugins/channels/server/demo/demo-page';
import { seedWebchatDemo } from '../plugins/channels/server/webchat/seed';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CHANNELS = path.join(REPO_ROOT, 'plugins', 'channels');
const WIDGET_DIST = path.join(CHANNELS, 'dist', 'widget');
const VISITOR = 'Visitante Navegador';
/** A real 1×1 PNG (the server checks a file's type by its content). */
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The widget bundle, built (only its compiler) when older than its sources. */
function buildWidget(): void {
  const output = path.join(WIDGET_DIST, 'channels-widget.js');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = [path.join(CHANNELS, 'widget'), path.join(CHANNELS, 'shared'), path.join(REPO_ROOT, 'rspack.config.ts')];
  if (built > 0 && built >= Math.max(...sources.map(newestMtime))) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'channels-widget'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the chat widget failed (exit ${result.status})`);
}

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let demo: { url: string; server: Server };
let refusedDemo: { url: string; server: Server };
let whatsappId: number;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildWidget();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  const knex = t.balcao.core.knex;
  const acme = t.demo.companies.acme;
  const channels = t.balcao.plugins.find((plugin) => plugin.discovered.manifest.id === 'channels');
  if (!channels) throw new Error('the channels plugin is not loaded');
  // the app's public address (signed media links of the widget) is where this test app listens
  Object.assign(channels.ctx.config, { publicUrl: baseUrl });
  // Acme's demo webchat connection, as `npm start` seeds it, on two queues: the agent works Vendas
  const seeded = await seedWebchatDemo(channels.ctx, t.demo);
  if (!seeded) throw new Error('the webchat demo connection was not seeded');
  whatsappId = seeded;
  const vendas = await makeQueue(t, acme, 'Vendas', [t.demo.users.acmeAgent]);
  const suporte = await makeQueue(t, acme, 'Suporte');
  await knex('whatsappQueues').where({ whatsappId }).delete();
  await knex('whatsappQueues').insert([
    { companyId: acme, whatsappId, queueId: vendas.id },
    { companyId: acme, whatsappId, queueId: suporte.id },
  ]);

  // the demo page on a random port, and the connection allowing exactly that origin (before any widget
  // request, so no cached copy of the connection exists yet); a second page of another origin is refused
  demo = await startWebchatDemoPage({ appUrl: baseUrl, port: 0 });
  refusedDemo = await startWebchatDemoPage({ appUrl: baseUrl, port: 0 });
  await knex('whatsapps')
    .where({ id: whatsappId })
    .update({ channelConfig: knex.raw(`jsonb_set(channel_config, '{allowedOrigins}', ?::jsonb)`, [JSON.stringify([demo.url])]) });
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'webchat'));

afterAll(async () => {
  await browser?.close();
  for (const page of [demo, refusedDemo]) {
    await new Promise<void>((resolve) => (page?.server ? page.server.close(() => resolve()) : resolve()));
  }
  await t?.close();
});

async function open(url: string): Promise<OpenedPage> {
  const page = await openPage(browser, url);
  opened.push(page);
  return page;
}

/** The widget's Shadow DOM on the demo page (playwright's CSS locators go through open shadow roots). */
const widget = (page: Page): Locator => page.locator('#balcao-chat');
const conversationLog = (page: Page): Locator => widget(page).getByRole('log');

describe('the chat widget on the demo page', () => {
  it('takes a visitor from the pre-chat form through the chatbot to an agent, live, and keeps the conversation on reload', async () => {
    const site = await open(demo.url);
    await site.page.goto(demo.url);
    const launcher = widget(site.page).getByRole('button', { name: 'Abrir conversa' });
    await launcher.click();

    // the pre-chat form of the connection: name required, e-mail optional
    await widget(site.page).getByRole('dialog', { name: 'Fale com a Acme' }).waitFor();
    await widget(site.page).getByRole('button', { name: 'Iniciar conversa' }).click();
    await widget(site.page).getByText('Preencha este campo.').waitFor();
    await widget(site.page).getByLabel('Nome *').fill(VISITOR);
    await widget(site.page).getByRole('button', { name: 'Iniciar conversa' }).click();

    const composer = widget(site.page).getByLabel('Digite sua mensagem');
    await composer.waitFor();
    await conversationLog(site.page).getByText('Olá! Como podemos ajudar?', { exact: false }).waitFor();
    await composer.fill('Olá, quero comprar uma caneca');
    await composer.press('Enter');
    await conversationLog(site.page).getByText('Olá, quero comprar uma caneca').waitFor();

    // the connection's greeting and the menu of its queues, from the chatbot, as bot messages
    await conversationLog(site.page).getByText('Escolha um setor', { exact: false }).waitFor({ timeout: 15_000 });
    // queues in menu order (by name): Suporte, Vendas
    await conversationLog(site.page).getByText('[ 2 ] - Vendas', { exact: false }).waitFor();
    await composer.fill('2');
    await composer.press('Enter');
    const ticketOfVisitor = () =>
      t.balcao.core
        .knex('tickets as t')
        .join('contacts as c', 'c.id', 't.contactId')
        .where({ 'c.name': VISITOR, 't.whatsappId': whatsappId })
        .orderBy('t.id', 'desc')
        .first('t.id', 't.uuid', 't.status', 't.queueId');
    await expect.poll(async () => (await ticketOfVisitor())?.queueId, { timeout: 15_000 }).toBeTruthy();

    // the agent of Vendas accepts it in the inbox and replies
    const agent = await open(baseUrl);
    await logInThroughUi(agent.page, baseUrl, 'agent@acme.test');
    await agent.page.waitForURL('**/tickets');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    const item = agent.page.getByTestId('ticket-item').filter({ hasText: VISITOR });
    await item.getByRole('button', { name: 'Aceitar' }).click();
    const ticket = await ticketOfVisitor();
    await agent.page.waitForURL(`**/tickets/${ticket.uuid}`);
    await agent.page.getByText('Olá, quero comprar uma caneca').waitFor();
    const agentComposer = agent.page.getByLabel('Digite uma mensagem ou "/" para respostas rápidas');
    await agentComposer.fill('Claro! Temos canecas em estoque.');
    await agentComposer.press('Enter');

    // the visitor sees the reply live
    await conversationLog(site.page).getByText('Temos canecas em estoque.', { exact: false }).waitFor({ timeout: 15_000 });
    expect(await conversationLog(site.page).locator('.msg.agent').last().locator('.author').textContent()).toBeTruthy();

    // a picture from the visitor: uploaded with its progress, then shown inline from its signed address
    await widget(site.page)
      .locator('input[type=file]')
      .setInputFiles({ name: 'caneca.png', mimeType: 'image/png', buffer: Buffer.from(ONE_PIXEL_PNG, 'base64') });
    const picture = conversationLog(site.page).locator('.msg.mine img');
    await picture.waitFor({ timeout: 15_000 });
    await expect.poll(() => picture.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);

    // closed: the next reply counts on the launcher's badge
    await site.page.keyboard.press('Escape');
    await launcher.waitFor();
    await agentComposer.fill('Posso ajudar em algo mais?');
    await agentComposer.press('Enter');
    await widget(site.page).getByRole('button', { name: 'Abrir conversa (1)' }).waitFor({ timeout: 15_000 });

    // a reload keeps the session and the conversation (no form again), and the badge
    await site.page.reload();
    await widget(site.page).getByRole('button', { name: 'Abrir conversa (1)' }).click();
    await conversationLog(site.page).getByText('Olá, quero comprar uma caneca').waitFor();
    await conversationLog(site.page).getByText('Posso ajudar em algo mais?').waitFor();
    expect(await widget(site.page).getByRole('button', { name: 'Iniciar conversa' }).count()).toBe(0);
    // opened and seen: the company's messages are read (ack 5 via the widget's `read`)
    await expect
      .poll(async () => {
        const rows = await t.balcao.core.knex('messages').where({ ticketId: ticket.id, fromMe: true }).select('ack');
        return rows.length > 0 && rows.every((row: { ack: number }) => row.ack >= 3);
      })
      .toBe(true);

    // resolved with a farewell, though neither the agent nor the connection wrote one: the visitor still
    // reads the product's default farewell (in the agent's interface language)
    await agent.page.getByTestId('ticket-header').getByRole('button', { name: 'Resolver', exact: true }).click();
    await agent.page.getByRole('button', { name: 'Resolver com despedida' }).click();
    await expect.poll(async () => (await ticketOfVisitor())?.status).toBe('closed');
    await conversationLog(site.page)
      .getByText('Atendimento encerrado. Obrigado pelo contato!', { exact: false })
      .waitFor({ timeout: 15_000 });

    // the widget talked to the app's origin, cross-origin for real, and nothing broke on the page
    expect(site.network.some((entry) => entry.url.startsWith(`${baseUrl}/api/webchat/${DEMO_WIDGET_KEY}/`))).toBe(true);
    expect(new URL(demo.url).origin).not.toBe(new URL(baseUrl).origin);
    expect(site.pageErrors).toEqual([]);
  });

  it('works inline in an element of the page, and honours the JS API queued before it loaded', async () => {
    const site = await open(demo.url);
    await site.page.goto(`${demo.url}/inline`);
    const inline = site.page.locator('#chat-here');
    // the page's `on` calls were queued by the stub before the script arrived: `ready` reached them
    await expect.poll(() => site.page.getByTestId('events').textContent()).toMatch(/ready\s+\{"online":true\}/);
    await inline.getByRole('region', { name: 'Fale com a Acme' }).waitFor();
    await inline.getByRole('button', { name: 'Iniciar conversa' }).waitFor();
    expect(await inline.getByRole('button', { name: 'Abrir conversa' }).count()).toBe(0);
    await site.page.getByRole('button', { name: "setLocale('en')" }).click();
    await inline.getByRole('button', { name: 'Start chat' }).waitFor();
    await inline.getByLabel('Name *').fill('Inline Visitor');
    await inline.getByRole('button', { name: 'Start chat' }).click();
    await inline.getByLabel('Type your message').waitFor();
    expect(site.pageErrors).toEqual([]);
  });

  it('takes the whole screen on a phone, and gives the focus back to the launcher on close', async () => {
    const site = await openPage(browser, demo.url, { viewport: { width: 375, height: 700 } });
    opened.push(site);
    await site.page.goto(demo.url);
    const launcher = widget(site.page).getByRole('button', { name: 'Abrir conversa' });
    await launcher.click();
    const dialog = widget(site.page).getByRole('dialog', { name: 'Fale com a Acme' });
    await dialog.waitFor();
    expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 700 });
    // the focus is in the window (the form's first field), Escape closes it and the launcher has it back
    expect(
      await widget(site.page)
        .getByLabel('Nome *')
        .evaluate((input) => input === input.getRootNode().activeElement),
    ).toBe(true);
    await site.page.keyboard.press('Escape');
    await launcher.waitFor();
    expect(await launcher.evaluate((button) => button === button.getRootNode().activeElement)).toBe(true);
  });

  it('shows its error state on a site whose origin the connection does not allow', async () => {
    const site = await open(refusedDemo.url);
    await site.page.goto(refusedDemo.url);
    await widget(site.page).getByRole('button', { name: 'Abrir conversa' }).click();
    // the refusal carries CORS for the refused page too, so the widget reads the code and names the reason
    const error = widget(site.page).getByRole('alert').filter({ hasText: 'Este site não pode usar este chat.' });
    await error.waitFor();
    expect(await widget(site.page).getByLabel('Digite sua mensagem').count()).toBe(0);
  });
});

describe('the widget bundle', () => {
  const gzipped = (file: string) => gzipSync(readFileSync(path.join(WIDGET_DIST, file)), { level: 9 }).length;

  it('keeps the loader within 5 KB gzipped and the whole widget on first open within 60 KB', () => {
    const loader = gzipped('channels-widget.js');
    const chunks = readdirSync(WIDGET_DIST).filter((file) => file.endsWith('.js') && file !== 'channels-widget.js');
    expect(chunks).toHaveLength(1);
    const whole = loader + chunks.reduce((sum, file) => sum + gzipped(file), 0);
    console.log(`chat widget: loader ${loader} B gzipped, whole widget on first open ${whole} B gzipped`);
    expect(loader).toBeLessThanOrEqual(5 * 1024);
    expect(whole).toBeLessThanOrEqual(60 * 1024);
  });
});
