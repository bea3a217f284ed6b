/**
 * Insights in real browsers against a real app with Acme's lived-in demo (its weeks of history included): the
 * dashboard's three tabs at `/`, an agent without showDashboard sent from `/` to /tickets, the report's Excel export
 * downloaded with its progress, and a Moments card moving live when a ticket is accepted elsewhere. Texts are
 * asserted in Portuguese, the default.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './build-once';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  t = await createTestApp({ demoData: true, config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'insights'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(email: string, viewport?: { width: number; height: number }) {
  const page = await openPage(browser, baseUrl, viewport ? { viewport } : {});
  opened.push(page);
  await logInThroughUi(page.page, baseUrl, email);
  return page;
}

describe('dashboard', () => {
  it("shows Acme's indicators, NPS and attendants at /", async () => {
    const { page, pageErrors } = await signedIn('admin@acme.test');
    await page.goto(`${baseUrl}/`);
    await page.getByRole('tab', { name: 'Indicadores' }).waitFor();
    // a range covering the demo's six weeks of history
    await page.getByRole('button', { name: 'Filtros' }).click();
    await page.getByLabel('Data inicial').fill(new Date(Date.now() - 60 * 86_400_000).toLocaleDateString('en-GB'));
    await page.getByLabel('Data inicial').press('Enter');
    await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
    const finished = page.locator('.ant-statistic').filter({ hasText: 'Finalizados' }).locator('.ant-statistic-content-value');
    await expect
      .poll(async () => Number((await finished.innerText()).replace(/\D/g, '')), { timeout: 15_000 })
      .toBeGreaterThan(100);
    await page.getByText('Atendimentos por dia').waitFor();
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    if (process.env.INSIGHTS_SHOTS) await page.screenshot({ path: '/tmp/ins/shot-indicators.png', fullPage: true });

    await page.getByRole('tab', { name: 'Avaliações' }).click();
    await page.getByRole('img', { name: /^NPS -?\d/ }).waitFor();
    await page.getByText('Promotores', { exact: true }).waitFor();
    if (process.env.INSIGHTS_SHOTS) await page.screenshot({ path: '/tmp/ins/shot-nps.png', fullPage: true });

    await page.getByRole('tab', { name: 'Atendentes' }).click();
    await page.getByRole('cell', { name: 'Ana Admin' }).waitFor();
    await page.getByRole('columnheader', { name: 'T.M. de espera' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('sends an agent without showDashboard from / to /tickets: / is never a dead end', async () => {
    const { page } = await signedIn('agent@acme.test');
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(/\/tickets$/);
    expect(await page.getByText('Oops! Acesso Negado!').count()).toBe(0);
  });
});

describe('report', () => {
  it('exports the filtered report to Excel with its progress', async () => {
    const { page } = await signedIn('admin@acme.test');
    await page.goto(`${baseUrl}/reports`);
    const total = page.locator('.ant-pagination-total-text');
    await total.waitFor();
    if (process.env.INSIGHTS_SHOTS) await page.screenshot({ path: '/tmp/ins/shot-report.png', fullPage: true });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar Excel' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('relatorio-de-atendimentos.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await file.path()) as unknown as ArrayBuffer);
    const shown = Number((await total.innerText()).replace(/\D/g, ''));
    // the header, then every ticket of the month so far
    expect(workbook.worksheets[0]?.rowCount).toBe(shown + 1);
    await page.getByText('Relatório exportado').waitFor();
  });
});

describe('Moments', () => {
  it('moves a card from Pending to the agent as soon as the ticket is accepted elsewhere', async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme;
    const agentId = t.demo.users.acmeAgent;
    const queue = await knex('userQueues').where({ companyId, userId: agentId }).first('queueId');
    const [contact] = await knex('contacts')
      .insert({ companyId, name: 'Cliente ao vivo', number: '5511955554444' })
      .returning('id');
    const [ticket] = await knex('tickets')
      .insert({ companyId, contactId: contact.id, status: 'pending', queueId: queue.queueId, lastMessage: 'Olá?' })
      .returning('id');

    const { page } = await signedIn('admin@acme.test', { width: 390, height: 844 });
    await page.goto(`${baseUrl}/moments`);
    const card = page.getByTestId(`moment-ticket-${ticket.id}`);
    await page.getByTestId('moments-pending').getByTestId(`moment-ticket-${ticket.id}`).waitFor();

    const agent = await t.login('agent@acme.test');
    const accepted = await t.inject({
      method: 'PUT',
      url: `/api/tickets/${ticket.id}`,
      token: agent.token,
      payload: { status: 'open', userId: agentId, queueId: queue.queueId },
    });
    expect(accepted.statusCode).toBe(200);
    await page.getByTestId(`moments-agent-${agentId}`).getByTestId(`moment-ticket-${ticket.id}`).waitFor({ timeout: 5_000 });
    if (process.env.INSIGHTS_SHOTS) await page.screenshot({ path: '/tmp/ins/shot-moments.png', fullPage: true });
    expect(await page.getByTestId('moments-pending').getByTestId(`moment-ticket-${ticket.id}`).count()).toBe(0);
    await card.click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
  });
});
