/**
 * The webhooks page in a real browser: an admin creates an endpoint (pointing at a local receiver stand-in)
 * with its events' checkboxes, sees its secret once, sends a test, and watches the delivery arrive in the
 * log drawer — signed with that secret — then opens the log on a phone-sized screen. Texts asserted in
 * Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../plugins/webhooks/server/testing/receiver';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const PLUGIN = path.join(REPO_ROOT, 'plugins', 'webhooks');

/** The webhooks remote, built (only that compiler) when older than its sources. */
function buildRemote(): void {
  const output = path.join(PLUGIN, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(PLUGIN, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_webhooks'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the webhooks remote failed (exit ${result.status})`);
}

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let receiver: Receiver;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildRemote();
  receiver = await startReceiver();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist'), outboundHttpAllow: ['127.0.0.1'] } });
  baseUrl = await t.listen();
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'webhooks'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver?.close();
});

describe('the webhooks page', () => {
  it('creates an endpoint, shows its secret once and logs a signed delivery', { timeout: 180_000 }, async () => {
    const opening = await openPage(browser, baseUrl);
    opened.push(opening);
    const { page } = opening;
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');
    await page.goto(`${baseUrl}/webhooks`);
    await page.getByText('Nenhum webhook ainda').waitFor();

    await page.getByRole('button', { name: /Novo webhook/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo webhook' });
    await dialog.getByLabel('Nome').fill('ERP');
    await dialog.getByLabel('Endereço (URL)').fill(`${receiver.url}/erp`);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Escolha pelo menos um evento').waitFor();
    await dialog.getByRole('checkbox', { name: /Ticket criado/ }).check();
    await dialog.getByRole('checkbox', { name: /Ticket fechado/ }).check();
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    const secret = await page.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Pronto' }).click();
    const row = page.getByRole('row', { name: /ERP/ });
    await row.getByText('Ativo').waitFor();
    await expect(page.locator('body').textContent()).resolves.not.toContain(secret);

    await row.getByRole('button', { name: /Testar/ }).click();
    await page.getByText('Evento de teste enviado').waitFor();
    await row.getByRole('button', { name: 'Entregas' }).click();
    const drawer = page.getByRole('dialog', { name: 'Entregas de ERP' });
    const delivered = drawer.getByRole('row', { name: /webhook\.test/ });
    await delivered.getByText('Entregue').waitFor({ timeout: 30_000 });
    await delivered.getByText('200').waitFor();

    // what the receiver got is signed with the secret the page showed
    const [received] = receiver.received.filter((delivery) => delivery.path === '/erp');
    const signature = received?.headers['balcao-signature'] ?? '';
    const timestamp = /t=(\d+)/.exec(signature)?.[1];
    expect(signature).toBe(
      `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${received?.rawBody}`).digest('hex')}`,
    );

    // on a phone the log takes the whole width
    await page.setViewportSize({ width: 390, height: 800 });
    // the drawer follows the new width once the page has re-rendered for it
    const wrapper = page.locator('.ant-drawer-content-wrapper');
    await expect.poll(async () => Math.round((await wrapper.boundingBox())?.width ?? 0)).toBe(390);
    await drawer.getByRole('button', { name: 'Reenviar' }).first().click();
    await page.getByText('Reenvio na fila').waitFor();
    await drawer
      .getByRole('row', { name: /webhook\.test/ })
      .nth(1)
      .waitFor();
  });
});
