/**
 * Campaigns in real browsers: an admin makes a contact list by importing a sheet, creates a campaign to
 * the loopback channel's recipients (a channel whose provider stand-in runs in this test), stops and
 * restarts it, and watches its report count up live; a profile user gets the no-permission view; Lite (no
 * useCampaigns) sees none of it and never downloads the remote. Texts are asserted in Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import {
  LOOPBACK_PLUGIN,
  LOOPBACK_URL_VARIABLE,
  type LoopbackProvider,
  startLoopbackProvider,
} from '@balcao/plugin-sdk/testing/loopback';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CAMPAIGNS = path.join(REPO_ROOT, 'plugins', 'campaigns');

/** The campaigns remote, built (only that compiler) when older than its sources. */
function buildCampaignsRemote(): void {
  const output = path.join(CAMPAIGNS, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(CAMPAIGNS, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_campaigns'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the campaigns remote failed (exit ${result.status})`);
}

let t: TestApp;
let provider: LoopbackProvider;
let baseUrl: string;
let browser: Browser;
let sheet: string;
const opened: OpenedPage[] = [];
const NUMBERS = ['5511970000001', '5511970000002', '5511970000003'];

beforeAll(async () => {
  buildCampaignsRemote();
  provider = await startLoopbackProvider();
  process.env[LOOPBACK_URL_VARIABLE] = provider.url;
  t = await createTestApp({ plugins: [LOOPBACK_PLUGIN], config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  const knex = t.balcao.core.knex;
  const companyId = t.demo.companies.acme as number;
  await knex('whatsapps').insert({
    companyId,
    name: 'Loopback',
    channel: 'loopback',
    status: 'CONNECTED',
    token: 'e2e-loopback',
  });
  // one message every 10 s at any hour: slow enough to stop it halfway
  await knex('campaignSettings').insert(
    [
      ['messageInterval', '10'],
      ['longerIntervalAfter', '0'],
      ['greaterInterval', '0'],
      ['sabado', 'true'],
      ['domingo', 'true'],
      ['startHour', '00:00'],
      ['endHour', '00:00'],
    ].map(([key, value]) => ({ companyId, key, value })),
  );
  const workbook = new ExcelJS.Workbook();
  const rows = workbook.addWorksheet('Contatos');
  rows.addRow(['Nome', 'Número', 'Email']);
  for (const [index, number] of NUMBERS.entries()) rows.addRow([`Cliente ${index + 1}`, number, '']);
  rows.addRow(['', '5511970000009', '']);
  sheet = path.join(t.config.storageDir, 'contatos-e2e.xlsx');
  await import('node:fs/promises').then(async (fs) => {
    await fs.mkdir(t.config.storageDir, { recursive: true });
    await fs.writeFile(sheet, Buffer.from(await workbook.xlsx.writeBuffer()));
  });
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'campaigns'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await provider?.close();
});

async function open(): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl);
  opened.push(page);
  return page;
}

describe('campaigns', () => {
  it('imports a list, runs a campaign, stops and restarts it, and the report counts live', { timeout: 180_000 }, async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');

    await page.getByRole('menuitem', { name: /Listas de contatos/ }).click();
    await page.waitForURL('**/contact-lists');
    await page.getByRole('button', { name: /Nova lista/ }).click();
    await page.getByLabel('Nome').fill('Clientes E2E');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Clientes E2E').waitFor();

    await page.getByRole('button', { name: 'Importar planilha' }).first().click();
    await page.locator('input[type=file]').setInputFiles(sheet);
    await page.getByTestId('import-result').getByText('3 adicionados, 0 atualizados, 1 recusados.').waitFor();
    await page.getByText('Linha 5: sem nome').waitFor();
    await page.getByTestId('import-result').getByRole('button', { name: 'Fechar' }).click();
    await page.getByRole('button', { name: 'Ver contatos' }).first().click();
    await page.waitForURL('**/contact-lists/*/contacts');
    await page.getByText('Cliente 3').waitFor();

    await page.goto(`${baseUrl}/campaigns`);
    await page.getByRole('button', { name: /Nova campanha/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome').fill('Ofertas E2E');
    await dialog.getByLabel('Conexão').click();
    await page.getByTitle(/^Loopback/).click();
    await dialog.getByLabel('Lista de contatos').click();
    await page.getByTitle(/^Clientes E2E/).click();
    await dialog.getByRole('textbox', { name: 'Mensagem 1' }).fill('Oi {nome}, temos novidades!');
    // the preview fills the variables for a recipient of the list, as the server will
    await dialog.getByTestId('campaign-preview').getByText('Oi Cliente 1, temos novidades!').waitFor();
    const now = new Date(Date.now() - 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await dialog
      .getByLabel('Agendamento')
      .fill(
        `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`,
      );
    await dialog.getByRole('button', { name: 'Criar' }).click();
    await page.getByRole('cell', { name: 'Ofertas E2E' }).waitFor();

    // running: the first message goes, then the admin stops it
    await provider.waitFor(() => provider.messages.length >= 1, 30_000);
    await page.getByRole('button', { name: 'Parar campanha' }).click();
    await page.locator('[data-status="CANCELADA"]').waitFor();
    expect(provider.messages.length).toBeLessThan(3);

    // its report while stopped, then again after the restart: it counts up by itself (one send every 10 s)
    await page.getByRole('button', { name: 'Relatório' }).first().click();
    await page.waitForURL('**/campaign/*/report');
    const delivered = page.getByTestId('report-delivered');
    await expect.poll(() => delivered.textContent()).toBe(`${provider.messages.length} de 3 mensagens entregues`);
    await page.getByRole('button', { name: 'Voltar às campanhas' }).click();
    await page.getByRole('button', { name: 'Reiniciar campanha' }).click();
    await page.getByRole('button', { name: 'Relatório' }).first().click();
    await page.waitForURL('**/campaign/*/report');
    await page.locator('[data-status="EM_ANDAMENTO"]').waitFor();
    const before = await delivered.textContent();
    await delivered.getByText('3 de 3 mensagens entregues').waitFor({ timeout: 60_000 });
    expect(before).not.toBe('3 de 3 mensagens entregues');
    await page.locator('[data-status="FINALIZADA"]').waitFor({ timeout: 20_000 });
    expect(provider.perRecipient()).toEqual(new Map(NUMBERS.map((number) => [number, 1])));
  });

  it('shows a profile user the no-permission view', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'agent@acme.test');
    await page.waitForURL('**/tickets');
    expect(await page.getByRole('menuitem', { name: /Campanhas/ }).count()).toBe(0);
    await page.goto(`${baseUrl}/campaigns`);
    await page.getByText('Oops! Acesso Negado!').waitFor();
  });

  it('shows Lite none of it and never downloads the remote', async () => {
    const { page, network } = await open();
    await logInThroughUi(page, baseUrl, 'admin@lite.test');
    await page.waitForURL('**/tickets');
    expect(await page.getByRole('menuitem', { name: /Campanhas|Listas de contatos/ }).count()).toBe(0);
    await page.goto(`${baseUrl}/contact-lists`);
    // the shell's page for a feature outside the plan (or its plan-gate toast)
    await page
      .getByText(/Recurso indisponível|não possui permissão/)
      .first()
      .waitFor();
    expect(network.filter((entry) => entry.url.includes('/plugins/campaigns/'))).toEqual([]);
  });
});
