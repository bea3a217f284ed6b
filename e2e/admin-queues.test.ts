/**
 * The Queues page in a real browser against a real app (Postgres, Redis, socket.io): an admin creates a
 * queue with a two-level chatbot, reopens it and finds the tree as saved. Texts are asserted in
 * Portuguese, the default.
 */
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
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

afterEach(closeOpenedPages(opened, 'queues'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the Queues page', () => {
  it('lets an admin create a queue with a two-level chatbot, and shows the tree when it is reopened', async () => {
    const session = await openPage(browser, baseUrl);
    opened.push(session);
    const { page } = session;
    await logInThroughUi(page, baseUrl, 'admin@acme.test');
    await page.waitForURL('**/tickets');
    // through the side menu's Administration entry
    await page.getByRole('menuitem', { name: /Filas & Chatbot/ }).click();
    await page.waitForURL('**/queues');
    await page.getByText('Nenhuma fila cadastrada').waitFor();

    await page.getByRole('button', { name: /Adicionar fila/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Atendimento');
    await dialog.getByLabel('Mensagem de saudação').fill('Bem-vindo ao atendimento da Acme');
    await dialog.getByRole('button', { name: /Adicionar opção/ }).click();
    await dialog.getByLabel('Opção 1 — Nome da opção').fill('Planos e preços');
    await dialog.getByLabel('Opção 1 — Mensagem enviada ao escolher esta opção').fill('Qual plano interessa a você?');
    await dialog.getByRole('button', { name: 'Opção 1 — Adicionar sub-opção' }).click();
    await dialog.getByLabel('Opção 1.1 — Nome da opção').fill('Plano Básico');
    await dialog.getByLabel('Opção 1.1 — Mensagem enviada ao escolher esta opção').fill('Custa R$ 49 por mês.');
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    await page.getByText('Fila salva com sucesso!').waitFor();
    await page.getByText('Bot saved successfully').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Atendimento' });
    await row.getByText('Bem-vindo ao atendimento da Acme').waitFor();

    const stored = await t.balcao.core.knex('chatbots').where({ companyId: t.demo.companies.acme }).orderBy('id');
    expect(stored.map((option: { name: string; chatbotId: number | null }) => [option.name, option.chatbotId])).toEqual([
      ['Planos e preços', null],
      ['Plano Básico', stored[0]?.id],
    ]);

    // reopened (after a reload, from the server): the tree is there, both levels
    await page.reload();
    await page.getByRole('button', { name: 'Editar Atendimento' }).click();
    await expect.poll(() => page.getByLabel('Opção 1 — Nome da opção').inputValue()).toBe('Planos e preços');
    expect(await page.getByLabel('Opção 1.1 — Nome da opção').inputValue()).toBe('Plano Básico');
    expect(await page.getByLabel('Opção 1.1 — Mensagem enviada ao escolher esta opção').inputValue()).toBe(
      'Custa R$ 49 por mês.',
    );
  });
});
