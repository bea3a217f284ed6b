/**
 * The super user's platform in a real browser against a real app (Postgres, Redis): the super user creates
 * a plan on the Settings page's Plans tab and a company on the Companies page, and that company's admin
 * logs in with the default password. Texts are asserted in Portuguese, the default.
 */
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './build-once';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  browser = await launchBrowser();
});

afterEach(closeOpenedPages(opened, 'admin-platform'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl);
  opened.push(page);
  return page;
}

/** Picks an option of the antd select labelled `label` inside `scope`. */
async function choose(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string): Promise<void> {
  await scope.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
}

describe('the platform', () => {
  it('lets the super user create a plan and a company whose admin then logs in', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'super@balcao.test');

    await page.goto(new URL('/settings', baseUrl).href);
    await page.getByRole('tab', { name: 'Planos' }).click();
    await page.getByRole('button', { name: 'Novo plano' }).click();
    const planDialog = page.getByRole('dialog');
    await planDialog.getByLabel('Nome', { exact: true }).fill('Plano E2E');
    await planDialog.getByLabel('Usuários', { exact: true }).fill('4');
    await planDialog.getByLabel('Conexões', { exact: true }).fill('2');
    await planDialog.getByLabel('Filas', { exact: true }).fill('3');
    await planDialog.getByLabel('Valor', { exact: true }).fill('89.9');
    await planDialog.getByText('Kanban', { exact: true }).click();
    await planDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await page.getByText('Operação realizada com sucesso!').first().waitFor();
    await page.getByRole('cell', { name: 'Plano E2E' }).waitFor();
    const plan = await t.balcao.core.knex('plans').where({ name: 'Plano E2E' }).first();
    expect(plan).toMatchObject({ users: 4, connections: 2, queues: 3, useKanban: true, useWhatsapp: false });

    await page.getByRole('menuitem', { name: 'Empresas' }).click();
    await page.waitForURL('**/companies');
    await page.getByRole('button', { name: 'Nova empresa' }).click();
    const companyDialog = page.getByRole('dialog');
    await companyDialog.getByLabel('Nome', { exact: true }).fill('Padaria E2E');
    await companyDialog.getByLabel('E-mail', { exact: true }).fill('dono@padaria.test');
    await choose(page, companyDialog, 'Plano', 'Plano E2E');
    await choose(page, companyDialog, 'Ativo', 'Sim');
    await companyDialog.getByLabel('Vencimento', { exact: true }).fill('2099-01-31');
    await companyDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await page.getByText('Operação realizada com sucesso!').first().waitFor();
    await page.getByRole('cell', { name: 'Padaria E2E' }).waitFor();
    const company = await t.balcao.core.knex('companies').where({ name: 'Padaria E2E' }).first();
    expect(company).toMatchObject({ planId: plan.id, status: true, dueDate: '2099-01-31' });

    // the company's admin logs in with the form's default password
    const owner = await open();
    await logInThroughUi(owner.page, baseUrl, 'dono@padaria.test', { password: '123456' });
    await owner.page
      .getByTestId('greeting')
      .getByText(/Padaria E2E/)
      .waitFor();
  });
});
