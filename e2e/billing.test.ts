/**
 * Billing in a real browser: Acme's admin goes through the checkout wizard (Dados, Personalizar with the
 * custom plan, Revisar) while the request's price is forged on the wire — the Pix view and the stand-in
 * gateway both show the server's price — then the payer pays at the stand-in, whose webhook confirms the
 * payment: the renewal toast shows, the app goes to / after 4 seconds, on the same session. Texts are
 * asserted in Portuguese, the demo's language.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BillingContext } from '../plugins/billing/server/config';
import { type BillingState, billingState, webhookAddress } from '../plugins/billing/server/services/state';
import { addMonths } from '../plugins/billing/shared/pricing';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const BILLING = path.join(REPO_ROOT, 'plugins', 'billing');

/** The billing remote, built (only that compiler) when older than its sources. */
function buildBillingRemote(): void {
  const output = path.join(BILLING, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(BILLING, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_billing'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the billing remote failed (exit ${result.status})`);
}

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let state: BillingState;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildBillingRemote();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  const plugin = t.balcao.plugins.find((candidate) => candidate.discovered.manifest.id === 'billing');
  if (!plugin) throw new Error('the billing plugin is not loaded');
  state = billingState(plugin.ctx);
  if (!state.standIn || !state.webhookSecret) throw new Error('the test expects the stand-in Efí gateway');
  // the stand-in posts Efí's webhook to this app
  state.standIn.webhookUrl = webhookAddress(plugin.ctx as BillingContext, baseUrl, state.webhookSecret);
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'billing'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('billing', () => {
  it('charges the server’s price whatever the browser sends, and renews on payment without a new login', {
    timeout: 180_000,
  }, async () => {
    const knex = t.balcao.core.knex;
    const acme = t.demo.companies.acme as number;
    const dueBefore = (await knex('companies').where({ id: acme }).first('dueDate')).dueDate as string;
    const opening = await openPage(browser, baseUrl);
    opened.push(opening);
    const { page } = opening;
    // the browser forges the price of every subscription request
    await page.route('**/api/subscription', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      const body = { ...(request.postDataJSON() as Record<string, unknown>), price: 0.01 };
      await route.continue({ postData: JSON.stringify(body) });
    });
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');

    await page.goto(`${baseUrl}/subscription`);
    await page.getByText(/Sua licença vence em \d+ dias!/).waitFor();
    await page.getByRole('button', { name: 'Assine Agora!' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByText('O nome completo é obrigatório').waitFor();
    await dialog.getByLabel('Nome completo').fill('Maria da Silva');
    await dialog.getByLabel('CPF/CNPJ').fill('123.456.789-09');
    await dialog.getByRole('button', { name: 'Próximo' }).click();

    await dialog.getByText('Personalizado').click();
    await dialog.getByRole('button', { name: 'Usuários +' }).click();
    await dialog.getByRole('button', { name: 'Usuários +' }).click();
    // never under 3 connections
    expect(await dialog.getByRole('button', { name: 'Conexões -' }).isDisabled()).toBe(true);
    // 3 users and 3 connections at 49, +11 a user: 71
    await dialog
      .getByTestId('custom-price')
      .getByText(/R\$\s71,00/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog
      .getByTestId('review-total')
      .getByText(/R\$\s71,00/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Pagar' }).click();

    await page.getByText('Assinatura realizada com sucesso, aguardando a realização do pagamento').waitFor();
    await dialog
      .getByTestId('pix-amount')
      .getByText(/R\$\s71,00/)
      .waitFor();
    const charges = [...(state.standIn?.charges.values() ?? [])];
    expect(charges.map((charge) => charge.amount)).toEqual(['71.00']);

    // the payer's bank pays the charge; the stand-in tells the app through Efí's webhook
    expect(await state.standIn?.pay(charges[0]?.txid as string)).toBe(200);
    const renewed = addMonths(dueBefore, 1);
    const [y, m, d] = renewed.split('-');
    await page.getByText(`Sua licença foi renovada até ${d}/${m}/${y?.slice(2)}`).waitFor();
    await page.waitForURL(`${baseUrl}/`, { timeout: 10_000 });
    expect((await knex('companies').where({ id: acme }).first('dueDate', 'numberAttendants')).numberAttendants).toBe(5);
    // the same session goes on: no login page
    expect(page.url()).not.toContain('/login');
  });

  it('sends an expired company’s admin to /financeiro-aberto, where paying unlocks the app without a new login', {
    timeout: 180_000,
  }, async () => {
    const knex = t.balcao.core.knex;
    const acme = t.demo.companies.acme as number;
    const lapsed = new Date(Date.now() - 3 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const dueDate = `${lapsed.getFullYear()}-${pad(lapsed.getMonth() + 1)}-${pad(lapsed.getDate())}`;
    await knex('companies').where({ id: acme }).update({ dueDate });
    await t.balcao.core.sessions.invalidateCompany(acme);
    const opening = await openPage(browser, baseUrl);
    opened.push(opening);
    const { page } = opening;
    // no frame to wait for: the session reaches only the pay screen
    await logInThroughUi(page, baseUrl, 'admin@acme.test', { waitForFrame: false });
    const payScreen = page.getByText('Pague a fatura em aberto para liberar o acesso.', { exact: false });
    const weakPasswordDialog = page.locator('.ant-modal-confirm, .ant-modal').locator('.ant-btn-primary');
    await payScreen.or(weakPasswordDialog).first().waitFor({ timeout: 15_000 });
    if (!(await payScreen.isVisible())) await weakPasswordDialog.click();
    await payScreen.waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(`${baseUrl}/financeiro-aberto`);
    // any other screen leads back to the pay screen
    await page.goto(`${baseUrl}/tickets`);
    await page.waitForURL('**/financeiro-aberto');

    await page.getByRole('button', { name: 'Assine Agora!' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome completo').fill('Maria da Silva');
    await dialog.getByLabel('CPF/CNPJ').fill('123.456.789-09');
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByText('Personalizado').click();
    await dialog.getByRole('button', { name: 'Próximo' }).click();
    await dialog.getByRole('button', { name: 'Pagar' }).click();
    await dialog.getByTestId('pix-amount').waitFor();
    const charge = [...(state.standIn?.charges.values() ?? [])].at(-1);
    expect(await state.standIn?.pay(charge?.txid as string)).toBe(200);
    await page.waitForURL(`${baseUrl}/`, { timeout: 15_000 });
    // unlocked on the same session: the frame's other screens open
    await page.goto(`${baseUrl}/tickets`);
    await page.waitForURL('**/tickets');
    expect(page.url()).not.toContain('/login');
    expect((await knex('companies').where({ id: acme }).first('dueDate')).dueDate > dueDate).toBe(true);
  });
});
