/**
 * The internal chat in real browsers: the admin and the agent of Acme, each signed in in a browser context of
 * their own, write to each other live, a picture included; the agent's unread dot on the menu and count on the top bar clear once
 * the unread chat is opened; only the owner can delete, and the agent's list loses the chat at once; a narrow
 * screen shows the Chats and Mensagens tabs. Texts are asserted in Portuguese, the default.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CHAT_PLUGIN = path.join(REPO_ROOT, 'plugins', 'internal-chat');

/** The internal chat's remote, built (only its compiler) when older than its sources. */
function buildChatRemote(): void {
  const output = path.join(CHAT_PLUGIN, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'package.json'].map((part) => newestMtime(path.join(CHAT_PLUGIN, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_internal_chat'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the internal chat remote failed (exit ${result.status})`);
}

let t: TestApp;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildChatRemote();
  t = await createTestApp({ demoData: true, config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  baseUrl = await t.listen();
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'internal-chat'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function signedIn(email: string, viewport?: { width: number; height: number }): Promise<OpenedPage> {
  const page = await openPage(browser, baseUrl, viewport ? { viewport } : {});
  opened.push(page);
  await logInThroughUi(page.page, baseUrl, email);
  return page;
}

const chatUuid = async (title: string) =>
  ((await t.balcao.core.knex('chats').where({ companyId: t.demo.companies.acme, title }).first('uuid')) as { uuid: string }).uuid;

describe('the internal chat', () => {
  it('carries messages live between two users, and the unread dot clears once the chat is read', async () => {
    const agent = await signedIn('agent@acme.test');
    // the demo leaves the agent two unread messages in "Trocas e devoluções": a dot on the menu, 2 on the top bar
    const menuEntry = agent.page.getByRole('menuitem', { name: /Chat Interno/ });
    await menuEntry.locator('.ant-badge-dot').waitFor();
    const topBarButton = agent.page.getByRole('button', { name: 'Abrir o chat interno' });
    await topBarButton.waitFor();
    await agent.page.locator('header .ant-badge').filter({ has: topBarButton }).getByText('2').first().waitFor();

    // the popover lists the chats; choosing the unread one opens it and marks it read
    await topBarButton.click();
    await agent.page.locator('.ant-popover').getByText('Trocas e devoluções').click();
    await agent.page.waitForURL(`**/chats/${await chatUuid('Trocas e devoluções')}`);
    await agent.page.getByText('E me avise se ele quiser estorno em vez de troca.').waitFor();
    await menuEntry.locator('.ant-badge-dot').waitFor({ state: 'detached' });

    const admin = await signedIn('admin@acme.test');
    await admin.page.goto(`${baseUrl}/chats/${await chatUuid('Trocas e devoluções')}`);
    await admin.page.getByText('Pode sim, se a compra foi há menos de 30 dias. Anote no ticket.').waitFor();
    // the agent read the admin's last message: "seen by" under it
    await admin.page.getByTestId('seen-by').getByText('Visto por Alex Agente').waitFor();

    // Enter sends; the agent, on the same chat, sees it arrive without a reload
    const box = admin.page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await box.fill('Cliente aceitou o estorno, pode seguir.');
    await box.press('Enter');
    await agent.page.getByTestId('chat-messages').getByText('Cliente aceitou o estorno, pode seguir.').waitFor();
    expect(await box.inputValue()).toBe('');
    // the agent answers; the admin sees it live too
    const agentBox = agent.page.getByRole('textbox', { name: 'Digite uma mensagem' });
    const answers: string[] = [];
    agent.page.on('response', (response) => {
      if (response.url().includes('/api/chats'))
        answers.push(`${response.request().method()} ${response.url()} ${response.status()}`);
    });
    await agentBox.fill('Feito ✅');
    await agentBox.press('Enter');
    await admin.page.getByTestId('chat-messages').getByText('Feito ✅').waitFor();
    // the chat's own call (an endpoint name taken by another feature would send the inbox's instead)
    expect(answers.filter((answer) => answer.startsWith('POST') && answer.includes('/messages '))).toEqual([
      expect.stringMatching(/ 200$/),
    ]);
    // a picture sent from the clip button reaches the agent as an image its signed link really serves
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
      'base64',
    );
    await admin.page.locator('input[type="file"]').setInputFiles({ name: 'etiqueta.png', mimeType: 'image/png', buffer: png });
    const picture = agent.page.getByTestId('chat-messages').getByRole('img', { name: 'etiqueta.png' });
    await picture.waitFor();
    // decoded by the browser: 2 px wide once the file came back through its link
    await expect.poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(2);
    // both had the chat open and visible: nobody is left with an unread dot
    await admin.page.waitForTimeout(300);
    expect(
      await agent.page
        .getByRole('menuitem', { name: /Chat Interno/ })
        .locator('.ant-badge-dot')
        .count(),
    ).toBe(0);
    expect(agent.pageErrors).toEqual([]);
    expect(admin.pageErrors).toEqual([]);
  });

  it('lets only the owner delete a chat, and the member sees it go; a narrow screen has two tabs', async () => {
    const agent = await signedIn('agent@acme.test', { width: 390, height: 800 });
    await agent.page.goto(`${baseUrl}/chats`);
    await agent.page.getByRole('tab', { name: 'Chats' }).waitFor();
    await agent.page.getByRole('tab', { name: 'Mensagens' }).waitFor();
    const agentItem = agent.page.getByTestId('chat-list').getByText('Equipe de atendimento');
    await agentItem.waitFor();
    // the admin owns the demo chats: the agent has no delete or edit on them
    expect(await agent.page.getByTestId('chat-list').getByRole('button', { name: 'Excluir' }).count()).toBe(0);
    await agentItem.click();
    await agent.page.getByTestId('chat-messages').getByText('Combinado 👍').waitFor();
    expect(await agent.page.getByRole('tab', { name: 'Mensagens' }).getAttribute('aria-selected')).toBe('true');

    const admin = await signedIn('admin@acme.test');
    await admin.page.goto(`${baseUrl}/chats/${await chatUuid('Equipe de atendimento')}`);
    await admin.page.getByTestId('chat-messages').getByText('Combinado 👍').waitFor();
    await admin.page
      .getByTestId('chat-list')
      .locator('li', { hasText: 'Equipe de atendimento' })
      .getByRole('button', { name: 'Excluir' })
      .click();
    await admin.page.locator('.ant-popconfirm').getByRole('button', { name: 'Excluir' }).click();
    // deleting the open chat clears it and goes back to /chats
    await admin.page.waitForURL(/\/chats$/);
    await admin.page.getByText('Selecione um chat para ver as mensagens').waitFor();
    // the agent, who had it open, is taken back to /chats and their list loses it
    await agent.page.waitForURL(/\/chats$/);
    await agent.page.getByRole('tab', { name: 'Chats' }).click();
    await agent.page.getByTestId('chat-list').getByText('Trocas e devoluções').waitFor();
    expect(await agent.page.getByTestId('chat-list').getByText('Equipe de atendimento').count()).toBe(0);
  });
});
