/**
 * The shell in a real browser: Debian's chromium against a real app (Postgres, Redis, socket.io) serving
 * the built host and the fixture plugin's federated remote. Texts are asserted in Portuguese, the default.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOMS } from '@balcao/plugin-sdk/shared';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { measureBundles } from '../bench/bundle-size';
import { FIXTURE_PLUGIN, REPO_ROOT } from './build-once';

let t: TestApp;
let baseUrl: string;
let browser: Browser;
let outbox: string;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  outbox = mkdtempSync(path.join(tmpdir(), 'balcao-e2e-outbox-'));
  t = await createTestApp({
    plugins: [FIXTURE_PLUGIN],
    config: { hostDist: path.join(REPO_ROOT, 'host', 'dist'), mailOutboxDir: outbox },
  });
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

async function open(options?: { viewport: { width: number; height: number } }): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl, options);
  opened.push(page);
  return page;
}

/** Requests the page made for the fixture plugin's remote. */
const remoteRequests = (network: OpenedPage['network']) =>
  network.filter((entry) => new URL(entry.url).pathname.startsWith('/plugins/hello/'));

/** Calls the API with the browser's own session (logging in again from here would take it over). */
async function apiAsPage(page: Page, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const token = await page.evaluate<string | null>("localStorage.getItem('token')");
  return t.inject({ method, url: `/api${url}`, token: token ?? undefined, ...(payload ? { payload } : {}) });
}

const ddmmyyyy = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');

describe('login and the app frame', () => {
  it('logs the demo admin in: greeting, the plugin menu entry, and its remote page with the notes list', async () => {
    const { page, network, pageErrors } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');

    const dueDate = (await t.balcao.core.knex('companies').where({ id: t.demo.companies.acme }).first('dueDate'))
      .dueDate as string;
    await expect
      .poll(() => page.getByTestId('greeting').textContent())
      .toBe(`Olá Ana Admin, seja bem-vindo(a) a Acme! (Ativo até ${ddmmyyyy(String(dueDate))})`);
    // the inbox serves /tickets
    await page.getByRole('tab', { name: /Atendendo/ }).waitFor();
    await page.getByRole('menuitem', { name: 'Atendimentos' }).waitFor();
    await page.getByText('v4.2.0').waitFor();
    // every documented route is now served by a feature of the repository: the "feature not installed" page
    // of a documented route is the frame's own test's (host/src/frame/Frame.test.tsx)
    const hello = page.getByRole('menuitem', { name: 'Olá' });
    await hello.waitFor();
    // the icon the plugin's menu entry names (SmileOutlined), imported from the copied icon set
    await hello.locator('.anticon-smile').waitFor();
    // the remote is registered, not downloaded, until one of its routes is visited
    expect(remoteRequests(network)).toEqual([]);

    const created = await apiAsPage(page, 'POST', '/hello-notes', { text: 'Primeira nota' });
    expect(created.statusCode).toBe(201);
    await hello.click();
    await page.waitForURL('**/hello');
    await page.getByRole('heading', { name: 'Olá' }).waitFor();
    await page.getByTestId('hello-notes').getByText('Primeira nota').waitFor();
    expect(remoteRequests(network).map((entry) => new URL(entry.url).pathname)).toContain('/plugins/hello/mf-manifest.json');

    // a note created elsewhere arrives through the company socket into the RTK Query cache
    await apiAsPage(page, 'POST', '/hello-notes', { text: 'Nota ao vivo' });
    await page.getByTestId('hello-notes').getByText('Nota ao vivo').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('never tells a company without the flag about the plugin, nor downloads its code', async () => {
    const { page, network } = await open();
    await logInThroughUi(page, baseUrl, 'agent@lite.test');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe('Olá Leo Agente, seja bem-vindo(a) a Lite!');
    // the always-on modules are there; the plan-gated plugin is not
    await page.getByRole('menuitem', { name: 'Atendimentos' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Olá' }).count()).toBe(0);
    await page.goto(`${baseUrl}/hello`);
    await page.getByText('Página não encontrada').waitFor();
    await page.waitForLoadState('networkidle');
    expect(remoteRequests(network)).toEqual([]);
  });

  it('shows the translated error for a wrong password', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test', { password: 'Wrong1234', waitForFrame: false });
    await page.getByText('Erro de autenticação. Por favor, tente novamente.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('keeps the language the user chose across a reload', async () => {
    const { page } = await open();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('button', { name: 'EN', exact: true }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');
    expect(await page.getByRole('button', { name: 'EN', exact: true }).getAttribute('aria-pressed')).toBe('true');
  });

  it('asks before logging in with a weak password', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test', { password: 'abc', waitForFrame: false });
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Senha com baixa segurança').waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('button', { name: 'Entrar mesmo assim' }).click();
    await page.getByText('Erro de autenticação. Por favor, tente novamente.').waitFor();
  });

  it('keeps the session across a reload, and logs out to /login', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.reload();
    await page.getByTestId('greeting').waitFor();
    await page.getByRole('button', { name: 'Menu do usuário' }).click();
    await page.getByRole('menuitem', { name: 'Sair' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate<string | null>("localStorage.getItem('token')")).toBeNull();
    await page.goto(`${baseUrl}/hello`);
    await page.waitForURL('**/login');
  });

  it('turns the menu into a drawer on narrow screens', async () => {
    const { page } = await open({ viewport: { width: 390, height: 800 } });
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe('Olá Ana Admin');
    expect(await page.getByRole('menuitem', { name: 'Olá' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.getByRole('menuitem', { name: 'Olá' }).click();
    await page.getByRole('heading', { name: 'Olá' }).waitFor();
  });

  it('shows an error panel in place of a plugin that fails to load, never a blank app', async () => {
    const { page } = await open();
    await page.route('**/plugins/hello/**', (route) => route.abort());
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.getByRole('menuitem', { name: 'Olá' }).click();
    await page.getByText('Não foi possível carregar o módulo “hello”.').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('greeting').isVisible()).toBe(true);
    await page.unroute('**/plugins/hello/**');
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await page.getByRole('heading', { name: 'Olá' }).waitFor();
  });

  it('ends the older session when the same user logs in elsewhere', async () => {
    const first = await open();
    await logInThroughUi(first.page, baseUrl, 'agent@acme.test');
    // the older session hears about the takeover in its user's room of the company socket: wait until the
    // server has put it there (a transport handshake seen in the network log came before the namespace's
    // token check, and a slow machine could log in the second browser in between)
    const { acme } = t.demo.companies;
    const inUserRoom = async () =>
      (await t.balcao.core.realtime.io.of(`/${acme}`).in(ROOMS.user(t.demo.users.acmeAgent)).fetchSockets()).length;
    await expect.poll(inUserRoom, { timeout: 15_000 }).toBe(1);
    // the toast shows when the second login is answered, maybe before the second page has painted its frame
    const toastShown = first.page.getByText('Sua conta foi acessada em outro computador.').waitFor();
    const second = await open();
    await logInThroughUi(second.page, baseUrl, 'agent@acme.test');
    await toastShown;
    // the page reloads a second later (asked while it reloads, the page has no answer yet: ask again)
    const navigationType = () =>
      first.page.evaluate<string>("performance.getEntriesByType('navigation')[0]?.type ?? ''").catch(() => '');
    await expect.poll(navigationType, { timeout: 10_000 }).toBe('reload');
    await first.page.waitForURL('**/login');
    // local storage was cleared (the reloaded login page may have stored its theme colour since)
    expect(await first.page.evaluate<string | null>("localStorage.getItem('token')")).toBeNull();
    expect(await second.page.getByTestId('greeting').isVisible()).toBe(true);
  });

  it('sends a login with an expired subscription to /financeiro-aberto', async () => {
    const lite = t.demo.companies.lite;
    const { dueDate } = await t.balcao.core.knex('companies').where({ id: lite }).first('dueDate');
    await t.balcao.core.knex('companies').where({ id: lite }).update({ dueDate: '2020-01-02' });
    await t.balcao.core.sessions.invalidateCompany(lite);
    try {
      const { page } = await open();
      await logInThroughUi(page, baseUrl, 'admin@lite.test', { waitForFrame: false });
      await page.waitForURL('**/financeiro-aberto');
      await page.getByText('Sua assinatura venceu em 02/01/2020, entre em contato com o suporte.').waitFor();
      await page.getByText('Assinatura vencida').waitFor();
      await page.getByText('A assinatura desta empresa venceu em 02/01/2020.', { exact: false }).waitFor();
    } finally {
      await t.balcao.core.knex('companies').where({ id: lite }).update({ dueDate });
      await t.balcao.core.sessions.invalidateCompany(lite);
    }
  });
});

describe('signup and password reset', () => {
  it('validates the signup form, creates the company and its admin, and goes back to /login', async () => {
    const { page } = await open();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('button', { name: 'Cadastre-se' }).click();
    // the router keeps the login on screen until the signup's code has arrived
    await page.getByRole('heading', { name: 'Cadastre-se' }).waitFor();
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect.poll(() => page.getByText('Obrigatório', { exact: true }).count()).toBe(6);
    await page.getByLabel('Nome da empresa').fill('B');
    await page.getByLabel('Seu nome').fill('x'.repeat(51));
    await page.getByLabel('E-mail').fill('nobody@');
    await page.getByLabel('Senha').fill('1234');
    await page.getByText('Muito curto!').first().waitFor();
    await page.getByText('Muito longo!').waitFor();
    await page.getByText('E-mail inválido').waitFor();
    expect(await page.getByText('Muito curto!').count()).toBe(2);

    await page.getByLabel('Nome da empresa').fill('Padaria Central');
    await page.getByLabel('Seu nome').fill('Paula Padeira');
    await page.getByLabel('E-mail').fill('Paula@Padaria.test');
    await page.getByLabel('Senha').fill('Secret123');
    await page.getByLabel('Telefone').fill('+55 11 91234-5678');
    await page.getByLabel('Plano').click();
    await page.getByTitle('Lite — usuários: 3, conexões: 1, filas: 3', { exact: false }).click();
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.getByText('Cadastro realizado com sucesso! Entre com seu e-mail e senha.').waitFor();
    await page.waitForURL('**/login');

    await logInThroughUi(page, baseUrl, 'paula@padaria.test', { password: 'Secret123', alreadyOnLoginPage: true });
    await expect.poll(() => page.getByTestId('greeting').textContent()).toContain('Padaria Central');
  });

  it('resets a password in two steps with the mailed code', async () => {
    const { page } = await open();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('link', { name: 'Esqueceu a senha?' }).click();
    await page.getByRole('heading', { name: 'Redefinir senha' }).waitFor();
    await page.getByLabel('E-mail').fill('ninguem@acme.test');
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await page.getByText('Email não encontrado').waitFor();

    await page.getByLabel('E-mail').fill('agent@lite.test');
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await page.getByText('Código de verificação enviado para o seu e-mail.').waitFor();
    const mail = readdirSync(outbox).find((name) => name.includes('agent@lite.test'));
    const code = /\b(\d{6})\b/.exec(readFileSync(path.join(outbox, mail ?? ''), 'utf8'))?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel('Código de verificação').fill(code === '000000' ? '111111' : '000000');
    await page.getByLabel('Nova senha', { exact: true }).fill('weak');
    await page.getByLabel('Confirme a nova senha').fill('other');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page
      .getByText('Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.')
      .waitFor();
    await page.getByText('As senhas não correspondem').waitFor();
    await page.getByLabel('Nova senha', { exact: true }).fill('Trocada123');
    await page.getByLabel('Confirme a nova senha').fill('Trocada123');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.getByText('Código de verificação inválido ou expirado.').waitFor();

    await page.getByLabel('Código de verificação').fill(code);
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.getByText('Senha redefinida com sucesso. Entre com a nova senha.').waitFor();
    await page.waitForURL('**/login');
    await logInThroughUi(page, baseUrl, 'agent@lite.test', { password: 'Trocada123', alreadyOnLoginPage: true });
  });
});

describe('what the browser downloads', () => {
  it('stays within 300 KB of gzipped JS before the login page paints', async () => {
    const sizes = await measureBundles(baseUrl);
    expect(sizes.loginJsGzipBytes).toBeGreaterThan(0);
    expect(sizes.loginJsGzipBytes).toBeLessThanOrEqual(300 * 1024);
    expect(sizes.shellJsGzipBytes).toBeGreaterThan(sizes.loginReadyJsGzipBytes);
  });

  it('serves the precompressed assets', async () => {
    const index = await fetch(`${baseUrl}/login`, { headers: { accept: 'text/html' } });
    const script = /src="(\/assets\/main\.[0-9a-f]+\.js)"/.exec(await index.text())?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
