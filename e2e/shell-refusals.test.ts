/**
 * What a first visitor trips on in the frame, in a real browser against a real
 * app: refused pages (the plan's toast and the redirect, the role's own words), `/` never a dead end, the
 * language menu naming each language in itself, tables that keep their columns in view, toasts at the top
 * centre, and the ticket's "Resolver" labelled on a phone. Texts are asserted in Portuguese, the default.
 */
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PLUGIN, REPO_ROOT } from './build-once';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  t = await createTestApp({ plugins: [FIXTURE_PLUGIN], config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  browser = await launchBrowser();
});

afterEach(async () => {
  for (const { context } of opened.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(email: string, viewport?: { width: number; height: number }): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl, viewport ? { viewport } : undefined);
  opened.push(page);
  await logInThroughUi(page.page, baseUrl, email);
  return page;
}

const PLAN_REFUSED = 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';
const ROLE_REFUSED = 'Você não tem permissão para acessar esta página! Estamos lhe redirecionando.';

/** The horizontal centre of an element, and the page's. */
async function centres(page: Page, selector: string): Promise<{ element: number; page: number }> {
  const box = await page.locator(selector).first().boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return { element: box ? box.x + box.width / 2 : -1, page: width / 2 };
}

describe('refused pages', () => {
  it("a page outside the company's plan: the documented toast at the top centre, then the start page after 1 s", async () => {
    const { page } = await signedIn('agent@lite.test');
    await page.goto(`${baseUrl}/Kanban`);
    const started = Date.now();
    const toast = page.getByText(PLAN_REFUSED);
    await toast.waitFor();
    // top centre (docs/product/tickets-and-inbox.md#errors), not the top-right corner
    const { element, page: middle } = await centres(page, '.ant-notification-notice');
    expect(Math.abs(element - middle)).toBeLessThan(40);
    // an agent without the dashboard starts at the tickets
    await page.waitForURL(/\/tickets$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(await page.getByText('Recurso indisponível').count()).toBe(0);
  });

  it('a page the role refuses does not blame the plan', async () => {
    const { page } = await signedIn('admin@acme.test');
    await page.goto(`${baseUrl}/announcements`);
    await page.getByText(ROLE_REFUSED).waitFor();
    expect(await page.getByText(/Esta empresa não possui permissão/).count()).toBe(0);
    // an admin starts at the dashboard
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`${baseUrl}/companies`);
    await page.getByText(ROLE_REFUSED).waitFor();
  });

  it('/ is never a dead end: an agent without the dashboard goes to /tickets, and so does the home button', async () => {
    const { page } = await signedIn('agent@acme.test');
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(/\/tickets$/);
    expect(await page.getByText('Oops! Acesso Negado!').count()).toBe(0);
    await page.goto(`${baseUrl}/no-such-page`);
    await page.getByText('Página não encontrada').waitFor();
    await page.getByRole('button', { name: 'Ir para o início' }).click();
    await page.waitForURL(/\/tickets$/);
  });
});

describe('small things', () => {
  it('names each language in itself in the language menu, in every interface language', async () => {
    const { page } = await signedIn('admin@acme.test');
    // the user menu and its language submenu, as each interface language names them
    const words = { pt: ['Menu do usuário', 'Idioma'], tr: ['Kullanıcı menüsü', 'Dil'], en: ['User menu', 'Language'] };
    const pick = async (current: keyof typeof words, next: string | null) => {
      const [userMenu, language] = words[current];
      await page.getByRole('button', { name: userMenu }).click();
      await page.getByRole('menuitem', { name: language }).hover();
      for (const name of ['Português', 'English', 'Español', 'Türkçe']) {
        await page.getByRole('menuitem', { name, exact: true }).waitFor();
      }
      if (next) await page.getByRole('menuitem', { name: next, exact: true }).click();
    };
    await pick('pt', 'Türkçe');
    await page.getByRole('button', { name: 'Kullanıcı menüsü' }).waitFor();
    await pick('tr', 'English');
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    await pick('en', 'Português');
    await page.getByRole('button', { name: 'Menu do usuário' }).waitFor();
  });

  it('shows every column of the Plans and Companies tables without a sideways scroll', async () => {
    const { page } = await signedIn('super@balcao.test', { width: 1366, height: 800 });
    await page.goto(`${baseUrl}/settings`);
    for (const tab of ['Planos', 'Empresas']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.locator('.ant-table-row:visible').first().waitFor();
      const overflow = await page
        .locator('.ant-table-content:visible, .ant-table-body:visible')
        .first()
        .evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(overflow, tab).toBeLessThanOrEqual(1);
    }
    // the plan's features, in one column
    await page.getByRole('tab', { name: 'Planos' }).click();
    await page.locator('.ant-table-row:visible').getByText('Kanban', { exact: true }).first().waitFor();
  });

  it('labels "Resolver" on a phone', async () => {
    const acme = t.demo.companies.acme;
    const knex = t.balcao.core.knex;
    // an open ticket of Ana Admin (the rows as the inbox stores them: this test is about its header only)
    const [contact] = await knex('contacts')
      .insert({ companyId: acme, name: 'Cliente do Celular', number: '5511987650001' })
      .returning('id');
    const [ticket] = await knex('tickets')
      .insert({ companyId: acme, contactId: contact.id, status: 'open', userId: t.demo.users.acmeAdmin })
      .returning(['id', 'uuid']);
    const { page } = await signedIn('admin@acme.test', { width: 390, height: 800 });
    await page.goto(`${baseUrl}/tickets/${ticket.uuid}`);
    // the ticket's own header (the list's quick buttons are not shown beside an open ticket on a phone)
    const resolve = page.locator('button[aria-label="Resolver"]:visible').first();
    await resolve.waitFor();
    expect((await resolve.innerText()).trim()).toBe('Resolver');
  });
});
