/**
 * The message API page in a real browser: an admin sends a text through the page's test form with a
 * connection's token (the echo channel of plugins/message-api/server/testing), creates an API key and sees
 * its secret once, revokes it, and the test form then shows the key's refusal. Texts asserted in Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Knex } from 'knex';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echoConnection } from '../plugins/message-api/server/testing/kit';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const PLUGIN = path.join(REPO_ROOT, 'plugins', 'message-api');
const ECHO = path.join(PLUGIN, 'server', 'testing', 'echo-channel');

/** The message API remote, built (only that compiler) when older than its sources. */
function buildRemote(): void {
  const output = path.join(PLUGIN, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'package.json'].map((part) => newestMtime(path.join(PLUGIN, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_message_api'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the message API remote failed (exit ${result.status})`);
}

let t: TestApp;
let knex: Knex;
let baseUrl: string;
let browser: Browser;
let token: string;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildRemote();
  t = await createTestApp({ plugins: [ECHO], config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  knex = t.balcao.core.knex;
  token = (await echoConnection(knex, t.demo.companies.acme as number)).token;
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'message-api'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the message API page', () => {
  it('sends through the test form, creates a key shown once and revokes it', { timeout: 180_000 }, async () => {
    const { page } = await openPage(browser, baseUrl).then((opening) => {
      opened.push(opening);
      return opening;
    });
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');
    await page.goto(`${baseUrl}/messages-api`);
    await page.getByText('Documentação para envio de mensagens').waitFor();

    const textForm = page.getByRole('form', { name: 'Teste de envio de texto' });
    await textForm.getByLabel('Token').fill(token);
    await textForm.getByLabel('Número').fill('(11) 99999-0000');
    await textForm.getByLabel('Mensagem', { exact: true }).fill('Olá pelo teste');
    await textForm.getByRole('button', { name: /Enviar/ }).click();
    await textForm.getByText('Só dígitos, com o código do país').waitFor();
    await textForm.getByLabel('Número').fill('5511977770001');
    await textForm.getByRole('button', { name: /Enviar/ }).click();
    await page.getByText('Mensagem enviada com sucesso').waitFor();
    const contact = await knex('contacts').where({ number: '5511977770001' }).first('id');
    expect(await knex('messages').where({ contactId: contact.id }).first('body')).toEqual({ body: 'Olá pelo teste' });

    await page.getByRole('button', { name: /Nova chave/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova chave de API' });
    await dialog.getByLabel('Nome').fill('ERP da loja');
    await dialog.getByRole('button', { name: 'Criar' }).click();
    const secret = await page.getByTestId('api-key-secret').inputValue();
    expect(secret).toMatch(/^blc_[0-9]+_/);
    await page.getByRole('button', { name: 'Concluído' }).click();
    const row = page.getByRole('row', { name: /ERP da loja/ });
    await row.getByText('Ativa').waitFor();
    await expect(row.textContent()).resolves.not.toContain(secret);

    await row.getByRole('button', { name: 'Revogar' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Revogar' }).click();
    await page.getByText('Chave revogada').waitFor();
    await row.getByText('Revogada').waitFor();

    await textForm.getByLabel('Token').fill(secret);
    await textForm.getByLabel('Mensagem', { exact: true }).fill('Com a chave revogada');
    await textForm.getByRole('button', { name: /Enviar/ }).click();
    await page.getByText('Esta chave de API foi revogada.').waitFor();
  });
});
