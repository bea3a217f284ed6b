/**
 * The kanban in real browsers: an admin drags a card between lanes; an agent's board (a second browser
 * context) and the embedded widget on a plain page of another origin (a third) show it move live; a
 * company without useKanban never downloads the remote. Texts are asserted in Portuguese, the default.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startKanbanDemoPage } from '../plugins/kanban/server/demo/demo-page';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const KANBAN = path.join(REPO_ROOT, 'plugins', 'kanban');

/** The kanban remote and widget, built (only those two compilers) when older than their sources. */
function buildKanbanBundles(): void {
  const outputs = [path.join(KANBAN, 'dist', 'ui', 'mf-manifest.json'), path.join(KANBAN, 'dist', 'widget', 'kanban-widget.js')];
  const built = Math.min(...outputs.map((output) => (existsSync(output) ? statSync(output).mtimeMs : 0)));
  const sources = ['ui', 'widget', 'shared', 'package.json'].map((part) => newestMtime(path.join(KANBAN, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync(
    'npx',
    ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_kanban', '--config-name', 'kanban-widget'],
    { cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`building the kanban bundles failed (exit ${result.status})`);
}

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let demo: { url: string; server: Server };
let embedKey: string;
const ids = { proposta: 0, fechado: 0, ticket: 0, formatted: 0 };
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildKanbanBundles();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  const knex = t.balcao.core.knex;
  const companyId = t.demo.companies.acme;
  // the agent sees unassigned tickets of the Vendas queue
  const [queue] = await knex('queues').insert({ companyId, name: 'Vendas', color: '#1677FF' }).returning('id');
  await knex('userQueues').insert({ companyId, userId: t.demo.users.acmeAgent, queueId: queue.id });
  const [proposta] = await knex('tags').insert({ companyId, name: 'Proposta', color: '#1677FF', kanban: 1 }).returning('id');
  const [fechado] = await knex('tags').insert({ companyId, name: 'Fechado', color: '#52C41A', kanban: 1 }).returning('id');
  const [contact] = await knex('contacts').insert({ companyId, name: 'Marina Souza', number: '5511988776655' }).returning('id');
  const [ticket] = await knex('tickets')
    .insert({ companyId, contactId: contact.id, status: 'pending', queueId: queue.id, lastMessage: 'Pode me mandar a proposta?' })
    .returning('id');
  await knex('ticketTags').insert({ companyId, ticketId: ticket.id, tagId: proposta.id });
  // a last message in WhatsApp's markup, with HTML that must stay text
  const [other] = await knex('contacts').insert({ companyId, name: 'Rafael Dias', number: '5511988770000' }).returning('id');
  const [formatted] = await knex('tickets')
    .insert({
      companyId,
      contactId: other.id,
      status: 'pending',
      queueId: queue.id,
      lastMessage: '*Ana Admin:* envio a _proposta_ ~ontem~ <img src=x onerror="window.__xss=1">',
    })
    .returning('id');
  await knex('ticketTags').insert({ companyId, ticketId: formatted.id, tagId: proposta.id });
  Object.assign(ids, { proposta: proposta.id, fechado: fechado.id, ticket: ticket.id, formatted: formatted.id });

  // the plain page of another origin, and a key that allows exactly that origin
  demo = await startKanbanDemoPage({ appUrl: baseUrl, port: 0, embedKey: 'pending' });
  const admin = await t.login('admin@acme.test');
  const created = await t.inject({
    method: 'POST',
    url: '/api/kanban-embed-keys',
    token: admin.token,
    payload: { name: 'Loja Exemplo', allowedOrigins: [demo.url], mayMove: true, signedUsers: false, laneIds: null },
  });
  embedKey = created.json().key;
  await new Promise<void>((resolve) => demo.server.close(() => resolve()));
  const port = Number(new URL(demo.url).port);
  demo = await startKanbanDemoPage({ appUrl: baseUrl, port, embedKey });
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'kanban'));

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (demo?.server ? demo.server.close(() => resolve()) : resolve()));
  await t?.close();
});

async function open(url = baseUrl): Promise<OpenedPage> {
  const page = await openPage(browser, url);
  opened.push(page);
  return page;
}

/** The lane (section) a card is in, on the board. */
const boardLaneOf = (page: Page, ticketId: number) =>
  page.evaluate<string | null>(
    `document.querySelector('[data-ticket-id="${ticketId}"]')?.closest('section')?.getAttribute('data-testid') ?? null`,
  );

/** The lane a card is in, inside the widget's Shadow DOM on the demo page. */
const widgetLaneOf = (page: Page, ticketId: number) =>
  page.evaluate<string | null>(
    `document.getElementById('balcao-kanban')?.shadowRoot?.querySelector('[data-ticket-id="${ticketId}"]')?.closest('section')?.getAttribute('data-lane') ?? null`,
  );

describe('the kanban board', () => {
  it('moves a dragged card, and a second browser and the embedded widget on another origin see it move', async () => {
    const admin = await open();
    await logInThroughUi(admin.page, baseUrl, 'admin@acme.test');
    await admin.page.waitForURL('**/tickets');
    // the side menu's entry (its accessible name includes the icon's; 'Kanban incorporado' is another entry)
    await admin.page.getByRole('menuitem', { name: /Kanban$/ }).click();
    await admin.page.waitForURL('**/Kanban');
    await admin.page.getByTestId(`kanban-card-${ids.ticket}`).waitFor();
    expect(await boardLaneOf(admin.page, ids.ticket)).toBe(`kanban-lane-${ids.proposta}`);
    await admin.page.getByText('Pode me mandar a proposta?').waitFor();
    // WhatsApp's markup shows as emphasis on the card, and HTML in a message stays text
    const card = admin.page.getByTestId(`kanban-card-${ids.formatted}`);
    await card.locator('strong').getByText('Ana Admin:').waitFor();
    expect(await card.locator('em').innerText()).toBe('proposta');
    expect(await card.locator('s').innerText()).toBe('ontem');
    expect(await card.locator('img').count()).toBe(0);
    expect(await card.innerText()).toContain('<img src=x');

    const agent = await open();
    await logInThroughUi(agent.page, baseUrl, 'agent@acme.test');
    await agent.page.waitForURL('**/tickets');
    await agent.page.goto(`${baseUrl}/Kanban`);
    await agent.page.getByTestId(`kanban-card-${ids.ticket}`).waitFor();
    // an agent without showDashboard has no '+ Adicionar colunas'
    expect(await agent.page.getByText('+ Adicionar colunas').count()).toBe(0);

    const site = await open(demo.url);
    await site.page.goto(demo.url);
    await expect.poll(() => widgetLaneOf(site.page, ids.ticket), { timeout: 15_000 }).toBe(String(ids.proposta));
    await site.page.getByTestId('events').getByText('ready').waitFor();
    // the widget renders the same markup, and no HTML of a message
    expect(
      await site.page.evaluate<string[]>(
        `(() => { const card = document.getElementById('balcao-kanban').shadowRoot.querySelector('[data-ticket-id="${ids.formatted}"]');
          return [card.querySelector('strong')?.textContent ?? '', card.querySelector('em')?.textContent ?? '', String(card.querySelectorAll('img').length)]; })()`,
      ),
    ).toEqual(['Ana Admin:', 'proposta', '0']);
    expect(await site.page.evaluate('window.__xss === undefined')).toBe(true);
    // the widget's requests went to the app's origin: cross-origin for real
    expect(site.network.some((entry) => entry.url.startsWith(`${baseUrl}/api/kanban-embed/`))).toBe(true);
    expect(new URL(demo.url).origin).not.toBe(new URL(baseUrl).origin);

    await admin.page.getByTestId(`kanban-card-${ids.ticket}`).dragTo(admin.page.getByTestId(`kanban-lane-${ids.fechado}`));
    await admin.page.getByText('Ticket Tag Removido!').waitFor();
    await admin.page.getByText('Ticket Tag Adicionado com Sucesso!').waitFor();
    await expect.poll(() => boardLaneOf(admin.page, ids.ticket)).toBe(`kanban-lane-${ids.fechado}`);

    await expect.poll(() => boardLaneOf(agent.page, ids.ticket), { timeout: 10_000 }).toBe(`kanban-lane-${ids.fechado}`);
    await expect.poll(() => widgetLaneOf(site.page, ids.ticket), { timeout: 10_000 }).toBe(String(ids.fechado));
    const lanes = await t.balcao.core.knex('ticketTags').where({ ticketId: ids.ticket }).select('tagId');
    expect(lanes.map((row: { tagId: number }) => row.tagId)).toEqual([ids.fechado]);
    expect(admin.pageErrors).toEqual([]);
    expect(site.pageErrors).toEqual([]);
  });

  it('moves a card from the embedded widget, and the board follows', async () => {
    const admin = await open();
    await logInThroughUi(admin.page, baseUrl, 'admin@acme.test');
    await admin.page.waitForURL('**/tickets');
    await admin.page.goto(`${baseUrl}/Kanban`);
    await admin.page.getByTestId(`kanban-card-${ids.ticket}`).waitFor();

    const site = await open(demo.url);
    await site.page.goto(demo.url);
    await expect.poll(() => widgetLaneOf(site.page, ids.ticket), { timeout: 15_000 }).not.toBeNull();
    await site.page.getByTestId('events').getByText('ready').waitFor();
    const from = await widgetLaneOf(site.page, ids.ticket);
    const to = from === String(ids.proposta) ? ids.fechado : ids.proposta;
    const card = site.page.locator('#balcao-kanban').locator(`[data-ticket-id="${ids.ticket}"]`);
    const target = site.page.locator('#balcao-kanban').locator(`section[data-lane="${to}"]`);
    await card.dragTo(target);
    await site.page.getByTestId('events').getByText('card-moved').waitFor();
    await expect.poll(() => boardLaneOf(admin.page, ids.ticket), { timeout: 10_000 }).toBe(`kanban-lane-${to}`);
    await expect.poll(() => widgetLaneOf(site.page, ids.ticket)).toBe(String(to));
  });
});

describe('long lanes', () => {
  it("loads a lane's further cards page by page as it scrolls, on the board and in the widget", async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const [longa] = await knex('tags').insert({ companyId, name: 'Zz Longa', color: '#FA8C16', kanban: 1 }).returning('id');
    const contacts = await knex('contacts')
      .insert(
        Array.from({ length: 75 }, (_unused, index) => ({
          companyId,
          name: `Longa ${index}`,
          number: `5511977${String(index).padStart(6, '0')}`,
        })),
      )
      .returning('id');
    const since = Date.now() - 3_600_000;
    const tickets = await knex('tickets')
      .insert(
        contacts.map((contact: { id: number }, index: number) => ({
          companyId,
          contactId: contact.id,
          status: 'open',
          lastMessage: `Longa ${index}`,
          updatedAt: new Date(since - index * 60_000),
        })),
      )
      .returning('id');
    await knex('ticketTags').insert(
      tickets.map((ticket: { id: number }) => ({ companyId, ticketId: ticket.id, tagId: longa.id })),
    );
    // the lane's oldest card: its last row, in its second page (the first cards are 20, pages 50)
    const oldest = (tickets.at(-1) as { id: number }).id;

    const admin = await open();
    await logInThroughUi(admin.page, baseUrl, 'admin@acme.test');
    await admin.page.waitForURL('**/tickets');
    await admin.page.goto(`${baseUrl}/Kanban`);
    await admin.page.getByTestId(`kanban-lane-count-${longa.id}`).getByText('75 tickets').waitFor();
    expect(await admin.page.getByTestId(`kanban-card-${oldest}`).count()).toBe(0);
    await admin.page.getByTestId(`kanban-lane-list-${longa.id}`).evaluate((list) => {
      list.scrollTop = list.scrollHeight;
    });
    await admin.page.getByTestId(`kanban-card-${oldest}`).waitFor();
    expect(admin.network.some((entry) => entry.url.includes(`lane=${longa.id}&offset=70&limit=50`))).toBe(true);
    expect(await admin.page.locator('[data-ticket-id]').count()).toBeLessThan(200);

    const site = await open(demo.url);
    await site.page.goto(demo.url);
    await site.page.getByTestId('events').getByText('ready').waitFor();
    await site.page.locator('#balcao-kanban').locator(`section[data-lane="${longa.id}"]`).getByText('75 tickets').waitFor();
    expect(await widgetLaneOf(site.page, oldest)).toBeNull();
    await site.page.evaluate(`(() => {
      const body = document.getElementById('balcao-kanban').shadowRoot.querySelector('.lane-body[data-lane="${longa.id}"]');
      body.scrollTop = body.scrollHeight;
    })()`);
    await expect.poll(() => widgetLaneOf(site.page, oldest), { timeout: 10_000 }).toBe(String(longa.id));
    expect(site.network.some((entry) => entry.url.includes(`/board?lane=${longa.id}&offset=70&limit=50`))).toBe(true);
    expect(admin.pageErrors).toEqual([]);
    expect(site.pageErrors).toEqual([]);
  });
});

describe('the widget bundle', () => {
  it('stays within 60 KB gzipped (one file, no framework)', () => {
    const bundle = readFileSync(path.join(KANBAN, 'dist', 'widget', 'kanban-widget.js'));
    expect(gzipSync(bundle, { level: 9 }).length).toBeLessThanOrEqual(60 * 1024);
  });
});

describe("the contact drawer's lane (the inbox's contactDrawer slot, filled by the kanban's remote)", () => {
  it("shows the ticket's lane in the inbox and moves the ticket from there", async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const [contact] = await knex('contacts').insert({ companyId, name: 'Beatriz Lima', number: '5511977665544' }).returning('id');
    const [ticket] = await knex('tickets')
      .insert({ companyId, contactId: contact.id, status: 'open', userId: t.demo.users.acmeAdmin, lastMessage: 'Quero fechar' })
      .returning(['id', 'uuid']);
    await knex('ticketTags').insert({ companyId, ticketId: ticket.id, tagId: ids.proposta });

    const admin = await open();
    await logInThroughUi(admin.page, baseUrl, 'admin@acme.test');
    await admin.page.waitForURL('**/tickets');
    await admin.page.goto(`${baseUrl}/tickets/${ticket.uuid}`);
    await admin.page.getByRole('button', { name: 'Dados do contato' }).first().click();
    await admin.page.getByText('Etapa do Kanban').waitFor();
    const laneSelect = admin.page.locator('.ant-select', { has: admin.page.getByLabel('Etapa do Kanban') });
    await laneSelect.getByText('Proposta').waitFor();
    // the section came from the kanban's remote, loaded for the inbox's slots
    expect(admin.network.some((entry) => new URL(entry.url).pathname === '/plugins/kanban/mf-manifest.json')).toBe(true);

    await laneSelect.click();
    await admin.page.locator('.ant-select-item-option').filter({ hasText: 'Fechado' }).click();
    await expect
      .poll(async () =>
        (await knex('ticketTags').where({ ticketId: ticket.id }).select('tagId')).map((row: { tagId: number }) => row.tagId),
      )
      .toEqual([ids.fechado]);
    // the ticket's event brings its new tags back to the drawer
    await laneSelect.getByText('Fechado').waitFor();

    // a lane created elsewhere is offered at once (the tag event)
    // as the page's own session (a second login of the admin would end it)
    const token = (await admin.page.evaluate<string | null>("localStorage.getItem('token')")) ?? undefined;
    const created = await t.inject({
      method: 'POST',
      url: '/api/tags',
      token,
      payload: { name: 'Negociação', color: '#FA541C', kanban: 1 },
    });
    expect(created.statusCode).toBeLessThan(300);
    await laneSelect.click();
    await admin.page.locator('.ant-select-item-option').filter({ hasText: 'Negociação' }).waitFor();
    expect(admin.pageErrors).toEqual([]);
  });
});

describe('the plan gate in the browser', () => {
  it('never downloads the kanban remote for a company without useKanban', async () => {
    const lite = await open();
    await logInThroughUi(lite.page, baseUrl, 'admin@lite.test');
    await lite.page.waitForURL('**/tickets');
    await lite.page.getByRole('menuitem', { name: 'Atendimentos' }).waitFor();
    expect(await lite.page.getByRole('menuitem', { name: /Kanban/ }).count()).toBe(0);
    await lite.page.goto(`${baseUrl}/Kanban`);
    // the shell's plan-refused toast (docs/product/automation.md#errors), then the start page
    await lite.page.getByText('Esta empresa não possui permissão para acessar essa página!', { exact: false }).waitFor();
    await lite.page.waitForURL((url) => url.pathname !== '/Kanban');
    expect(lite.network.filter((entry) => new URL(entry.url).pathname.startsWith('/plugins/kanban/'))).toEqual([]);
  });
});
