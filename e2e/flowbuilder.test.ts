/**
 * The flow builder in a real browser: an admin of Acme creates a flow from the list, builds a small flow on
 * the canvas (start → question → ticket hand-off) by dragging connections between handles, saves it, and
 * finds it again after a reload; a 300-node flow is panned and dragged while the frame rate is counted; a
 * narrow screen gets the editor with a hint to use a larger one; an image node gets its file through its
 * dialog and keeps it after a reload, leaving with unsaved changes asks first, and Acme's plan (useOpenAi,
 * the AI plugin loaded) is offered the OpenAI node.
 * Texts are asserted in Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const FLOWBUILDER = path.join(REPO_ROOT, 'plugins', 'flowbuilder');

/** The flow builder's remote, built (only that compiler) when older than its sources. */
function buildFlowbuilderRemote(): void {
  const output = path.join(FLOWBUILDER, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json']
    .map((part) => path.join(FLOWBUILDER, part))
    .filter((part) => existsSync(part))
    .map(newestMtime);
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_flowbuilder'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the flowbuilder remote failed (exit ${result.status})`);
}

/** A one-pixel PNG: what the server's type sniffing accepts as an image. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildFlowbuilderRemote();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  // the ticket node hands the conversation to a queue of Acme's
  await t.balcao.core.knex('queues').insert({ companyId: t.demo.companies.acme, name: 'Vendas E2E', color: '#112233' });
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'flowbuilder'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function adminPage(): Promise<Page> {
  const page = await openPage(browser, baseUrl, { viewport: { width: 1366, height: 900 } }).then((o) => {
    opened.push(o);
    return o.page;
  });
  await logInThroughUi(page, baseUrl, 'admin@acme.test');
  return page;
}

const nodeOf = (page: Page, kind: string) =>
  page.locator('.react-flow__node').filter({ has: page.getByTestId(`flow-node-${kind}`) });

/** Drags a connection from the right handle of one node to the left handle of another, as a user does. */
async function connect(page: Page, from: Locator, to: Locator): Promise<void> {
  const source = await from.locator('.react-flow__handle-right').first().boundingBox();
  const target = await to.locator('.react-flow__handle-left').first().boundingBox();
  if (!source || !target) throw new Error('a handle is not on screen');
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
}

async function addNode(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Adicionar nó' }).click();
  // the item's name starts with its icon's label
  await page.getByRole('menuitem', { name: new RegExp(`${label}$`) }).click();
}

describe('flowbuilder', () => {
  it('builds a small flow on the canvas, saves it and loads it again', { timeout: 120_000 }, async () => {
    const page = await adminPage();
    await page.getByRole('menuitem', { name: /Fluxos de conversa/ }).click();
    await page.waitForURL('**/flowbuilders');
    await page.getByRole('button', { name: 'Adicionar Fluxo' }).click();
    const naming = page.getByRole('dialog');
    await naming.getByLabel('Nome').fill('Boas-vindas E2E');
    await naming.getByRole('button', { name: 'Adicionar' }).click();
    await page.getByText('Fluxo criado com sucesso').waitFor();
    await page.waitForURL(/\/flowbuilder\/\d+$/);
    const flowId = Number(page.url().split('/').pop());
    await page.getByText('Desenhe seu fluxo').waitFor();
    await page.getByText('Não se esqueça de salvar seu fluxo!').waitFor();
    await nodeOf(page, 'start').waitFor();

    await addNode(page, 'Variáveis');
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Pergunta').fill('Qual é o seu nome?');
    await dialog.getByLabel('Variável da resposta').fill('nome');
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await nodeOf(page, 'question').waitFor();

    await addNode(page, 'Ticket');
    dialog = page.getByRole('dialog');
    // the documented refusal first, then a queue of Acme's
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await dialog.getByText('Adicione uma fila').waitFor();
    await dialog.getByLabel('Fila').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Vendas E2E' }).click();
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await nodeOf(page, 'ticket').waitFor();

    await page.locator('.react-flow__controls-fitview').click();
    await connect(page, nodeOf(page, 'start'), nodeOf(page, 'question'));
    await connect(page, nodeOf(page, 'question'), nodeOf(page, 'ticket'));
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);

    // undo takes the last connection back, redo restores it
    await page.getByRole('button', { name: 'Desfazer' }).click();
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(1);
    await page.getByRole('button', { name: 'Refazer' }).click();
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);

    // the check before saving: nothing blocks, but the question's answer is never used
    await page.getByRole('button', { name: /Salvar$/ }).click();
    const warning = page.getByTestId('flow-problem').filter({ hasText: 'A resposta desta pergunta nunca é usada.' });
    await warning.waitFor();
    await warning.click();
    await expect.poll(() => nodeOf(page, 'question').getAttribute('class')).toContain('selected');
    await page.getByRole('button', { name: 'Salvar mesmo assim' }).click();
    await page.getByText('Fluxo salvo com sucesso').waitFor();

    await page.reload();
    await nodeOf(page, 'question').waitFor();
    expect(await page.locator('.react-flow__node').count()).toBe(3);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(2);
    await nodeOf(page, 'question').getByText('Qual é o seu nome?').waitFor();
    // node ids: the start node keeps id 1, the others are 30 random alphanumerics
    const ids = await page.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-id')));
    expect(ids).toContain('1');
    expect(ids.filter((id) => id !== '1').every((id) => /^[A-Za-z0-9]{30}$/.test(id ?? ''))).toBe(true);
    expect(flowId).toBeGreaterThan(0);
  });

  it('uploads an image node, asks before unsaved work is left, and offers OpenAI', { timeout: 120_000 }, async () => {
    const admin = await t.login('admin@acme.test');
    const created = await t.inject({
      method: 'POST',
      url: '/api/flowbuilder',
      token: admin.token,
      payload: { name: 'Mídia E2E' },
    });
    const flowId = (created.json() as { id: number }).id;
    const page = await adminPage();
    await page.goto(`${baseUrl}/flowbuilder/${flowId}`);
    await nodeOf(page, 'start').waitFor();

    // Acme's plan has useOpenAi and the AI plugin is loaded: the speed dial offers the node, with its defaults
    await addNode(page, 'OpenAI');
    let dialog = page.getByRole('dialog');
    await dialog.getByText('Adicionar OpenAI').waitFor();
    expect(await dialog.getByLabel('Máximo de tokens').inputValue()).toBe('100');
    expect(await dialog.getByLabel('Máximo de mensagens').inputValue()).toBe('10');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // an image through its dialog: the file goes up at once and the node holds its stored name
    await addNode(page, 'Imagem');
    dialog = page.getByRole('dialog');
    await dialog.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
    const stored = dialog.locator('.ant-typography code');
    await stored.waitFor();
    const mediaName = (await stored.textContent())?.trim() ?? '';
    expect(mediaName).toMatch(/png$/);
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await nodeOf(page, 'img').waitFor();

    // unsaved: the shell's menu asks first, and staying keeps the work
    await page.getByRole('menuitem', { name: /Fluxos de conversa/ }).click();
    const leaving = page.getByRole('dialog').filter({ hasText: 'Sair sem salvar?' });
    await leaving.getByText('As alterações deste fluxo ainda não foram salvas e serão perdidas.').waitFor();
    await leaving.getByRole('button', { name: 'Continuar editando' }).click();
    await leaving.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/flowbuilder/${flowId}`);
    await nodeOf(page, 'img').waitFor();

    // nothing connected yet: the check only warns, and the flow is saved anyway
    await page.getByRole('button', { name: /Salvar$/ }).click();
    await page.getByRole('button', { name: 'Salvar mesmo assim' }).click();
    await page.getByText('Fluxo salvo com sucesso').waitFor();

    await page.reload();
    await nodeOf(page, 'img').getByText(mediaName.slice(0, 20)).waitFor();
    // the stored document holds the uploaded name (read where the runtime reads it)
    const row = await t.balcao.core.knex('flowBuilders').where({ id: flowId }).first('flow');
    const nodes = (row.flow as { nodes: { type: string; data: { url?: string } }[] }).nodes;
    expect(nodes.find((node) => node.type === 'img')?.data.url).toBe(mediaName);

    // saved and reloaded, nothing to lose: the tab may close without a question
    const asks = () =>
      page.evaluate(() => {
        const event = new Event('beforeunload', { cancelable: true });
        (globalThis as unknown as EventTarget).dispatchEvent(event);
        return event.defaultPrevented;
      });
    expect(await asks()).toBe(false);
    // a change (a copy of the image node) makes the tab ask, and the back arrow too — leaving when confirmed
    await nodeOf(page, 'img').getByRole('button', { name: 'Duplicar nó' }).click();
    await expect.poll(() => nodeOf(page, 'img').count()).toBe(2);
    expect(await asks()).toBe(true);
    await page.getByRole('button', { name: 'Voltar' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Sair sem salvar?' })
      .getByRole('button', { name: 'Sair sem salvar' })
      .click();
    await page.waitForURL('**/flowbuilders');
    await page.getByRole('button', { name: 'Adicionar Fluxo' }).waitFor();
  });

  it('pans and drags a flow of 300 nodes smoothly', { timeout: 120_000 }, async () => {
    const admin = await t.login('admin@acme.test');
    const created = await t.inject({
      method: 'POST',
      url: '/api/flowbuilder',
      token: admin.token,
      payload: { name: 'Grande E2E' },
    });
    expect(created.statusCode).toBeLessThan(300);
    const flowId = (created.json() as { id: number }).id;
    const id = (n: number) => (n === 0 ? '1' : `N${String(n).padStart(29, '0')}`);
    const nodes = Array.from({ length: 300 }, (_, n) => ({
      id: id(n),
      type: n === 0 ? 'start' : 'interval',
      position: { x: (n % 20) * 280, y: Math.floor(n / 20) * 160 },
      data: n === 0 ? { label: 'Inicio do fluxo' } : { label: 'Intervalo 1 seg.', sec: 1 },
    }));
    const connections = nodes.slice(1).map((node, n) => ({ id: `e${n}`, source: id(n), target: node.id, sourceHandle: 'a' }));
    const saved = await t.inject({
      method: 'POST',
      url: '/api/flowbuilder/flow',
      token: admin.token,
      payload: { idFlow: flowId, nodes, connections },
    });
    expect(saved.statusCode).toBeLessThan(300);

    const page = await adminPage();
    await page.goto(`${baseUrl}/flowbuilder/${flowId}`);
    await nodeOf(page, 'interval').first().waitFor();
    // a flow this big opens at half size around its middle, where nodes fill the screen
    const pane = await page.locator('.react-flow__pane').boundingBox();
    if (!pane) throw new Error('no canvas');

    // frames painted while the pane is dragged for about a second
    await page.evaluate(() => {
      const state = globalThis as unknown as {
        frames: number;
        counting: boolean;
        requestAnimationFrame(callback: () => void): number;
      };
      state.frames = 0;
      state.counting = true;
      const tick = () => {
        if (!state.counting) return;
        state.frames += 1;
        state.requestAnimationFrame(tick);
      };
      state.requestAnimationFrame(tick);
    });
    const started = Date.now();
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.down();
    for (let step = 0; step < 60; step += 1) {
      await page.mouse.move(pane.x + pane.width / 2 - step * 8, pane.y + pane.height / 2 - step * 4);
    }
    await page.mouse.up();
    const frames = await page.evaluate(() => {
      const state = globalThis as unknown as { frames: number; counting: boolean };
      state.counting = false;
      return state.frames;
    });
    const fps = (frames * 1000) / (Date.now() - started);
    console.log(`flowbuilder: 300 nodes, ${frames} frames in ${Date.now() - started} ms while panning (${fps.toFixed(1)} fps)`);
    // a loaded two-core CI machine paints less than a desktop: the floor catches a canvas that stalls
    expect(fps).toBeGreaterThan(20);
    // only the nodes on screen are in the page (onlyRenderVisibleElements)
    expect(await page.locator('.react-flow__node').count()).toBeLessThan(300);
  });
  it('opens the editor on a narrow screen with the larger-screen hint', { timeout: 60_000 }, async () => {
    const admin = await t.login('admin@acme.test');
    const created = await t.inject({
      method: 'POST',
      url: '/api/flowbuilder',
      token: admin.token,
      payload: { name: 'Celular E2E' },
    });
    const flowId = (created.json() as { id: number }).id;
    const page = await adminPage();
    await page.setViewportSize({ width: 700, height: 900 });
    await page.goto(`${baseUrl}/flowbuilder/${flowId}`);
    await page.getByText('Use uma tela maior (a partir de 768 px) para editar fluxos com conforto.').waitFor();
    // the canvas still opens, with the new flow's start node
    await nodeOf(page, 'start').waitFor();
    await page.setViewportSize({ width: 1024, height: 900 });
    await expect
      .poll(() => page.getByText('Use uma tela maior (a partir de 768 px) para editar fluxos com conforto.').count())
      .toBe(0);
  });
});
