/**
 * The chatbot handing a conversation over to people (docs/decisions.md "When the bot
 * hands over"), seen by a visitor of the chat widget on the demo page: the menu of sectors, the sector's
 * sub-menu, then a question — which gets the message that people will answer instead of the sub-menu
 * again, and nothing more from the bot after it. Texts are asserted in Portuguese, the demo's language.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WAITING_TEXTS } from '../modules/admin/shared/chatbot-texts';
import { startWebchatDemoPage } from '../plugins/channels/server/demo/demo-page';
import { seedWebchatDemo } from '../plugins/channels/server/webchat/seed';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CHANNELS = path.join(REPO_ROOT, 'plugins', 'channels');
const VISITOR = 'Visitante Perguntador';

/** The widget bundle, built (only its compiler) when older than its sources. */
function buildWidget(): void {
  const output = path.join(CHANNELS, 'dist', 'widget', 'channels-widget.js');
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
let browser: Browser;
let demo: { url: string; server: Server };
let whatsappId: number;
let vendas: number;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildWidget();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  const baseUrl = await t.listen();
  const knex = t.balcao.core.knex;
  const acme = t.demo.companies.acme;
  const channels = t.balcao.plugins.find((plugin) => plugin.discovered.manifest.id === 'channels');
  if (!channels) throw new Error('the channels plugin is not loaded');
  Object.assign(channels.ctx.config, { publicUrl: baseUrl });
  const seeded = await seedWebchatDemo(channels.ctx, t.demo);
  if (!seeded) throw new Error('the webchat demo connection was not seeded');
  whatsappId = seeded;
  // two sectors; Vendas has a sub-menu of two options
  const [suporteRow] = await knex('queues')
    .insert({ companyId: acme, name: 'Suporte', color: '#0A0B0C', greetingMessage: 'Fila Suporte' })
    .returning('id');
  const [vendasRow] = await knex('queues')
    .insert({ companyId: acme, name: 'Vendas', color: '#0C0B0A', greetingMessage: 'Vendas: escolha uma opção' })
    .returning('id');
  vendas = vendasRow.id;
  await knex('chatbots').insert([
    {
      companyId: acme,
      queueId: vendas,
      name: 'Planos',
      greetingMessage: 'Temos três planos.',
      queueType: 'text',
      orderOption: 0,
    },
    {
      companyId: acme,
      queueId: vendas,
      name: 'Entregas',
      greetingMessage: 'Entregamos no Rio.',
      queueType: 'text',
      orderOption: 1,
    },
  ]);
  await knex('whatsappQueues').where({ whatsappId }).delete();
  await knex('whatsappQueues').insert([
    { companyId: acme, whatsappId, queueId: suporteRow.id },
    { companyId: acme, whatsappId, queueId: vendas },
  ]);
  demo = await startWebchatDemoPage({ appUrl: baseUrl, port: 0 });
  await knex('whatsapps')
    .where({ id: whatsappId })
    .update({ channelConfig: knex.raw(`jsonb_set(channel_config, '{allowedOrigins}', ?::jsonb)`, [JSON.stringify([demo.url])]) });
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'admin-chatbot'));

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (demo?.server ? demo.server.close(() => resolve()) : resolve()));
  await t?.close();
});

const widget = (page: Page): Locator => page.locator('#balcao-chat');
const conversationLog = (page: Page): Locator => widget(page).getByRole('log');

describe('the chatbot hands over to people', () => {
  it('answers a question asked at a sub-menu with the waiting message, once, and leaves the ticket to the sector', async () => {
    const site = await openPage(browser, demo.url);
    opened.push(site);
    const { page } = site;
    await page.goto(demo.url);
    await widget(page).getByRole('button', { name: 'Abrir conversa' }).click();
    await widget(page).getByLabel('Nome *').fill(VISITOR);
    await widget(page).getByRole('button', { name: 'Iniciar conversa' }).click();
    const composer = widget(page).getByLabel('Digite sua mensagem');
    const say = async (text: string) => {
      await composer.fill(text);
      await composer.press('Enter');
      await conversationLog(page).getByText(text, { exact: true }).waitFor();
    };

    await say('Oi');
    await conversationLog(page).getByText('[ 2 ] - Vendas', { exact: false }).waitFor({ timeout: 15_000 });
    await say('2');
    await conversationLog(page).getByText('[ 2 ] - Entregas', { exact: false }).waitFor({ timeout: 15_000 });
    const subMenus = () => conversationLog(page).getByText('[ 2 ] - Entregas', { exact: false }).count();
    expect(await subMenus()).toBe(1);

    await say('Vocês entregam em Niterói?');
    await conversationLog(page).getByText(WAITING_TEXTS.pt).waitFor({ timeout: 15_000 });
    const ticketOfVisitor = () =>
      t.balcao.core
        .knex('tickets as t')
        .join('contacts as c', 'c.id', 't.contactId')
        .where({ 'c.name': VISITOR, 't.whatsappId': whatsappId })
        .orderBy('t.id', 'desc')
        .first('t.id', 't.status', 't.queueId', 't.isBot');
    const ticket = await ticketOfVisitor();
    expect(ticket).toMatchObject({ status: 'pending', queueId: vendas, isBot: false });
    const sentByUs = async () =>
      Number((await t.balcao.core.knex('messages').where({ ticketId: ticket.id, fromMe: true }).count({ n: '*' }))[0]?.n);
    const before = await sentByUs();
    // never the sub-menu again, and nothing more from the bot on the next message
    await say('Preciso receber até sexta');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await sentByUs()).toBe(before);
    expect(await subMenus()).toBe(1);
    expect(await conversationLog(page).getByText(WAITING_TEXTS.pt).count()).toBe(1);
    expect(site.pageErrors).toEqual([]);
  });
});
