/**
 * Users and password reset in real browsers against a real app (Postgres, Redis, a loopback SMTP server):
 * an admin creates a user with a queue on the Users page and that user logs in; a user who forgot the
 * password gets the code by mail and sets a new one. Texts are asserted in Portuguese, the default.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './build-once';

/** A real SMTP server on loopback that keeps every message it receives. */
function startSmtp(): Promise<{ server: SMTPServer; port: number; inbox: string[] }> {
  const inbox: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        inbox.push(raw);
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.server.address() as AddressInfo).port, inbox }));
  });
}

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let baseUrl: string;
let browser: Browser;
let queueId: number;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    config: { hostDist: path.join(REPO_ROOT, 'host', 'dist'), smtpUrl: `smtp://127.0.0.1:${smtp.port}` },
  });
  const [queue] = await t.balcao.core
    .knex('queues')
    .insert({ companyId: t.demo.companies.acme, name: 'Suporte E2E', color: '#1677FF' })
    .returning('id');
  queueId = queue.id;
  baseUrl = await t.listen();
  browser = await launchBrowser();
});

afterEach(closeOpenedPages(opened, 'admin-team'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
});

async function open(viewport?: { width: number; height: number }): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl, viewport ? { viewport } : {});
  opened.push(page);
  return page;
}

/** Picks an option of the antd select labelled `label`. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
}

describe('the Users page', () => {
  it('lets an admin create a user with a queue, who then logs in (and is denied the Users page)', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.getByRole('menuitem', { name: 'Usuários' }).click();
    await page.waitForURL('**/users');
    await page.getByRole('cell', { name: 'agent@acme.test' }).waitFor();

    await page.getByRole('button', { name: 'Adicionar usuário' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Bruna Nova');
    await dialog.getByLabel('E-mail', { exact: true }).fill('bruna.nova@acme.test');
    await dialog.getByLabel('Senha', { exact: true }).fill('Segura123');
    await choose(page, 'Filas', 'Suporte E2E');
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await page.getByText('Usuário salvo com sucesso!').waitFor();
    await page.getByRole('cell', { name: 'bruna.nova@acme.test' }).waitFor();

    const stored = await t.balcao.core.knex('users').where({ email: 'bruna.nova@acme.test' }).first('id', 'companyId');
    expect(stored.companyId).toBe(t.demo.companies.acme);
    const memberships = await t.balcao.core.knex('userQueues').where({ userId: stored.id }).select('queueId');
    expect(memberships.map((row) => row.queueId)).toEqual([queueId]);

    const newcomer = await open();
    await logInThroughUi(newcomer.page, baseUrl, 'bruna.nova@acme.test', { password: 'Segura123' });
    await newcomer.page
      .getByTestId('greeting')
      .getByText(/Bruna Nova/)
      .waitFor();
    await newcomer.page.goto(new URL('/users', baseUrl).href);
    await newcomer.page.getByText('Oops! Acesso Negado!').waitFor();

    // the avatar menu's Profile: their own dialog, the admin-only fields locked
    await newcomer.page.getByRole('button', { name: 'Menu do usuário' }).click();
    await newcomer.page.getByRole('menuitem', { name: 'Perfil' }).click();
    const profile = newcomer.page.getByRole('dialog');
    await profile.getByText('Meu perfil').waitFor();
    expect(await profile.getByLabel('Início do expediente', { exact: true }).isDisabled()).toBe(true);
    await profile.getByLabel('Nome', { exact: true }).fill('Bruna Renomeada');
    await profile.getByRole('button', { name: 'Salvar', exact: true }).click();
    await newcomer.page.getByText('Usuário salvo com sucesso!').waitFor();
    await expect
      .poll(async () => (await t.balcao.core.knex('users').where({ id: stored.id }).first('name')).name)
      .toBe('Bruna Renomeada');

    // and the admin's list follows the change live
    await page.getByRole('cell', { name: 'Bruna Renomeada', exact: true }).waitFor();
  });
});

describe('the Settings page', () => {
  it('saves an option the moment it changes, and asks for the message a switch requires first', async () => {
    const { page } = await open();
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.goto(new URL('/settings', baseUrl).href);
    await page.getByRole('tab', { name: 'Opções' }).waitFor();

    await page.getByRole('switch', { name: 'Avaliações' }).click();
    await page.getByText('Operação atualizada com sucesso').first().waitFor();
    expect(await t.balcao.core.settings.get(t.demo.companies.acme, 'userRating')).toBe('enabled');

    await page.getByRole('switch', { name: 'Enviar posição na fila' }).click();
    await page.getByText('Escreva a mensagem antes de ativar esta opção.').first().waitFor();
    expect(await t.balcao.core.settings.get(t.demo.companies.acme, 'sendQueuePosition')).toBe('disabled');
    const message = page.getByLabel('Mensagem de posição na fila', { exact: true });
    await message.fill('Você é o próximo da fila.');
    await message.blur();
    await expect
      .poll(() => t.balcao.core.settings.get(t.demo.companies.acme, 'sendQueuePositionMessage'))
      .toBe('Você é o próximo da fila.');
    await page.getByRole('switch', { name: 'Enviar posição na fila' }).click();
    await expect.poll(() => t.balcao.core.settings.get(t.demo.companies.acme, 'sendQueuePosition')).toBe('enabled');
  });

  it('shows the users as a list on a phone-wide screen', async () => {
    const { page } = await open({ width: 390, height: 800 });
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.goto(new URL('/users', baseUrl).href);
    await page.locator('.ant-list-item').filter({ hasText: 'agent@acme.test' }).waitFor();
    expect(await page.locator('table').count()).toBe(0);
    await page.getByRole('button', { name: 'Adicionar usuário' }).click();
    await page.getByRole('dialog').getByRole('tab', { name: 'Permissões' }).click();
    await page.getByRole('dialog').getByLabel('Gerenciar conexões', { exact: true }).waitFor();
  });
});

describe('password reset', () => {
  it('mails a code to the user, sets the new password with it, and the new password logs in', async () => {
    const { page } = await open();
    await page.goto(new URL('/forgetpsw', baseUrl).href);
    await page.getByLabel('E-mail', { exact: true }).fill('agent@lite.test');
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await page.getByLabel('Código de verificação', { exact: true }).waitFor();

    await expect.poll(() => smtp.inbox.some((raw) => raw.includes('agent@lite.test')), { timeout: 10_000 }).toBe(true);
    const mail = (smtp.inbox.find((raw) => raw.includes('agent@lite.test')) ?? '').replace(/=\r?\n/g, '');
    const code = /(\d{6})\. Ele vale/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel('Código de verificação', { exact: true }).fill(code as string);
    await page.getByLabel('Nova senha', { exact: true }).fill('NovaSenha123');
    await page.getByLabel('Confirme a nova senha', { exact: true }).fill('NovaSenha123');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await page.waitForURL('**/login');

    await logInThroughUi(page, baseUrl, 'agent@lite.test', { password: 'NovaSenha123', alreadyOnLoginPage: true });
    await page.getByTestId('greeting').waitFor();
  });
});
