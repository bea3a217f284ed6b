/**
 * The AI plugin in a real browser: an admin creates a prompt on /prompts (the queue is required: "Informe o
 * setor") and sees it listed with the token usage card; in the ticket view, an audio message's
 * "Transcrever áudio" opens the modal with the text the stand-in provider transcribed. Texts in Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { InboxService } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import { type OpenAiStandIn, startOpenAiStandIn } from '@balcao/plugin-sdk/testing/openai';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const AI = path.join(REPO_ROOT, 'plugins', 'ai');

/** The AI remote, built (only that compiler) when older than its sources. */
function buildAiRemote(): void {
  const output = path.join(AI, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(AI, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_ai'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the AI remote failed (exit ${result.status})`);
}

let t: TestApp;
let queueId = 0;
let standIn: OpenAiStandIn;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  buildAiRemote();
  standIn = await startOpenAiStandIn();
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist'), outboundHttpAllow: ['127.0.0.1'] } });
  baseUrl = await t.listen();
  const [queue] = await t.balcao.core
    .knex('queues')
    .insert({ companyId: t.demo.companies.acme, name: 'Vendas IA', color: '#a1b2c3' })
    .returning('id');
  queueId = queue.id;
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'ai'));

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await standIn?.close();
});

async function signedIn() {
  const o = await openPage(browser, baseUrl);
  opened.push(o);
  await logInThroughUi(o.page, baseUrl, 'admin@acme.test');
  await o.page.waitForURL('**/tickets');
  return o.page;
}

describe('AI prompts', () => {
  it('creates a prompt on /prompts, asking for the queue first', { timeout: 120_000 }, async () => {
    const page = await signedIn();
    await page.goto(`${baseUrl}/prompts`);
    await page.getByText('Consumo de tokens').waitFor();
    await page.getByRole('button', { name: 'Adicionar prompt' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Assistente de vendas');
    await dialog.getByLabel('Chave da API', { exact: true }).fill('sk-browser-5678');
    await dialog.getByLabel('Prompt', { exact: true }).fill('Você é o assistente de vendas da Acme e responde com educação.');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe o setor').waitFor();
    await dialog.getByLabel('Fila', { exact: true }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Vendas IA' }).first().click();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Prompt salvo').waitFor();
    await page.getByRole('cell', { name: 'Assistente de vendas' }).waitFor();
    const row = await t.balcao.core.knex('prompts').where({ name: 'Assistente de vendas' }).first();
    expect(row).toMatchObject({ maxTokens: 100, maxMessages: 10, voice: 'texto' });
    expect(row.apiKeySealed).not.toContain('sk-browser');
  });

  it('transcribes an audio message in the ticket view', { timeout: 120_000 }, async () => {
    const knex = t.balcao.core.knex;
    const companyId = t.demo.companies.acme as number;
    const inbox = t.balcao.core.services.use('inbox') as InboxService;
    const received = await inbox.receive({
      companyId,
      whatsappId: 621,
      channel: 'whatsapp',
      contact: { identifiers: ['5511960000777@s.whatsapp.net'], number: '5511960000777', name: 'Cliente do Áudio' },
      message: { id: 'e2e-ai-audio-1', body: 'oi' },
    });
    await knex('tickets').where({ id: received.ticketId }).update({ queueId });
    const ticket = await knex('tickets').where({ id: received.ticketId }).first('id', 'uuid', 'contactId', 'queueId');
    await knex('prompts').where({ companyId, queueId }).delete();
    await t.inject({
      method: 'POST',
      url: '/api/prompt',
      token: (await t.login('admin@acme.test')).token,
      payload: { name: 'Transcrição', prompt: 'Assistente.', queueId: ticket.queueId, apiKey: 'sk-good', baseUrl: standIn.url },
    });
    const stored = await t.balcao.core.storage.put(companyId, `media/${ticket.id}/e2e-voz.ogg`, Buffer.from('OggS e2e audio'));
    await knex('messages').insert({
      companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      body: '',
      fromMe: false,
      mediaType: 'audio',
      mediaPath: stored.key,
      mediaName: 'voz.ogg',
    });
    const page = await signedIn();
    await page.goto(`${baseUrl}/tickets/${ticket.uuid}`);
    await page.getByRole('button', { name: 'Transcrever áudio' }).last().click();
    await page.getByRole('dialog').getByText('Olá, eu gostaria de saber o horário de funcionamento.').waitFor();
    expect(standIn.transcriptions.length).toBeGreaterThan(0);
  });
});
