/**
 * Issue 28's small screens in a real browser against a real app: the login page's support chat (the super
 * user picks the platform's website chat in Settings → Chat de suporte, a visitor of /login opens it) and
 * the task list on a phone-sized screen (kept on the device across a reload). Texts in Portuguese.
 */
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { prepareWebchatConfig } from '../plugins/channels/server/webchat/config';
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

afterEach(closeOpenedPages(opened, 'small-screens'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(viewport?: { width: number; height: number }): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl, viewport ? { viewport } : {});
  opened.push(page);
  return page;
}

describe("the login page's support chat", () => {
  it('appears once the super user picks the platform website chat, and opens it', async () => {
    const platform = t.demo.companies.platform;
    const config = prepareWebchatConfig(
      { title: 'Suporte E2E', prechat: { name: 'required', email: 'off', phone: 'off' } },
      null,
    );
    await t.balcao.core.knex('whatsapps').insert({
      companyId: platform,
      name: 'Suporte E2E',
      channel: 'webchat',
      status: 'CONNECTED',
      token: 'e2e-support-token-000000000000',
      channelConfig: JSON.stringify(config),
    });

    const visitor = await open({ width: 390, height: 800 });
    await visitor.page.goto(new URL('/login', baseUrl).href);
    await visitor.page.getByRole('button', { name: 'Entrar', exact: true }).waitFor();
    expect(await visitor.page.getByRole('button', { name: 'Chat de suporte' }).count()).toBe(0);

    const admin = await open();
    await logInThroughUi(admin.page, baseUrl, 'super@balcao.test');
    await admin.page.goto(new URL('/settings', baseUrl).href);
    await admin.page.getByRole('tab', { name: 'Chat de suporte' }).click();
    await admin.page.getByLabel('Conexão').click();
    await admin.page.locator('.ant-select-item-option').filter({ hasText: 'Suporte E2E' }).click();
    await admin.page.getByText('Chat de suporte atualizado').first().waitFor();

    await visitor.page.reload();
    // nothing of the widget before the click
    expect(visitor.network.some((entry) => entry.url.includes('channels-widget'))).toBe(false);
    await visitor.page.getByRole('button', { name: 'Chat de suporte' }).click();
    await visitor.page.getByText('Suporte E2E').first().waitFor();
    await visitor.page.getByLabel(/Nome/).first().waitFor();
    expect(visitor.network.some((entry) => entry.url.includes('channels-widget'))).toBe(true);
    expect(visitor.pageErrors).toEqual([]);
  });
});

describe('the task list on a phone', () => {
  it('adds, edits and deletes tasks that stay on the device across a reload', async () => {
    const { page, pageErrors } = await open({ width: 390, height: 800 });
    await logInThroughUi(page, baseUrl, 'agent@acme.test');
    await page.goto(new URL('/todolist', baseUrl).href);
    const box = page.getByPlaceholder('Nova tarefa');
    await box.fill('   ');
    expect(await page.getByRole('button', { name: 'Adicionar' }).isDisabled()).toBe(true);
    await box.fill('Ligar para a Júlia');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await box.fill('Conferir boletos');
    await box.press('Enter');
    await page.getByText('Conferir boletos').waitFor();

    await page.reload();
    await page.getByText('Ligar para a Júlia').waitFor();
    const first = page.locator('li').filter({ hasText: 'Ligar para a Júlia' });
    await first.getByRole('button', { name: 'Editar' }).click();
    await box.fill('Ligar para a Júlia às 15h');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Ligar para a Júlia às 15h').waitFor();
    await page.locator('li').filter({ hasText: 'Conferir boletos' }).getByRole('button', { name: 'Excluir' }).click();
    await page.locator('.ant-popover').getByRole('button', { name: 'Excluir' }).click();
    await expect.poll(() => page.getByText('Conferir boletos').count()).toBe(0);

    // nothing went to the server: the list is in this browser's storage only
    const stored = await page.evaluate<Array<Array<{ text: string }>>>(
      "Object.entries(localStorage).filter(([key]) => key.startsWith('balcao:todolist:')).map(([, value]) => JSON.parse(value))",
    );
    expect(stored.flat().map((task) => task.text)).toEqual(['Ligar para a Júlia às 15h']);
    expect(pageErrors).toEqual([]);
  });
});
