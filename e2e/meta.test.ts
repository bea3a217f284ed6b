/**
 * The Meta channels in a real browser (docs/meta.md), against the Graph stand-in: a Facebook page is
 * connected through the stand-in (`POST /facebook`), a customer writes on Messenger (a signed webhook), the
 * admin accepts the conversation in the inbox and answers — the answer reaches the stand-in's Send API —
 * and a message the Graph refuses is shown failed, with why, in the conversation. Texts are the UI's
 * Portuguese.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MetaTestApp, startMetaApp } from '../plugins/meta/server/testing/kit';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CHANNELS = path.join(REPO_ROOT, 'plugins', 'channels');
const pt = JSON.parse(readFileSync(path.join(CHANNELS, 'ui', 'locales', 'pt.json'), 'utf8')) as {
  errors: Record<string, string>;
};

/** The channels remote (it carries the Meta error texts), built when older than its sources. */
function buildChannelsRemote(): void {
  const output = path.join(CHANNELS, 'dist', 'ui', 'mf-manifest.json');
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  const sources = ['ui', 'shared', 'package.json'].map((part) => newestMtime(path.join(CHANNELS, part)));
  if (built > 0 && built >= Math.max(...sources)) return;
  const result = spawnSync('npx', ['rspack', 'build', '-c', 'rspack.config.ts', '--config-name', 'balcao_channels'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`building the channels remote failed (exit ${result.status})`);
}

let m: MetaTestApp;
let browser: Browser;
const opened: OpenedPage[] = [];
const userToken = 'EAAB-browser-user-token';

beforeAll(async () => {
  buildChannelsRemote();
  m = await startMetaApp({ hostDist: path.join(REPO_ROOT, 'host', 'dist') });
  browser = await launchBrowser();
}, 300_000);
afterEach(closeOpenedPages(opened, 'meta'));
afterAll(async () => {
  await browser?.close();
  await m?.close();
});

describe('a Messenger conversation', () => {
  it('connects a page through the stand-in, answers a customer, and shows a refused message failed with why', async () => {
    const page = m.graph.addPage(userToken, { name: 'Página Navegador' });
    const admin = await m.t.login('admin@acme.test');
    const connected = await fetch(`${m.api}/facebook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ facebookUserId: '1', facebookUserToken: userToken }),
    });
    expect(connected.status).toBe(200);
    // an ownerless ticket is accepted into the accepting user's queue: the admin works one
    const knex = m.t.balcao.core.knex;
    const acme = m.t.demo.companies.acme as number;
    const [queue] = await knex('queues').insert({ companyId: acme, name: 'Messenger', color: '#1877F2' }).returning('id');
    await knex('userQueues').insert({ companyId: acme, userId: admin.user.id, queueId: queue.id });
    const psid = m.graph.nextId('7');
    m.graph.profiles.set(psid, { first_name: 'Cliente', last_name: 'Navegador' });
    const delivered = await m.graph.deliver(`${m.api}/meta/webhooks/facebook`, {
      object: 'page',
      entry: [
        {
          id: page.id,
          time: Date.now(),
          messaging: [
            {
              sender: { id: psid },
              recipient: { id: page.id },
              timestamp: Date.now(),
              message: { mid: `m_${Date.now()}`, text: 'Vocês entregam no sábado?' },
            },
          ],
        },
      ],
    });
    expect(delivered.status).toBe(200);

    const agent = await openPage(browser, m.url);
    opened.push(agent);
    await logInThroughUi(agent.page, m.url, 'admin@acme.test');
    await agent.page.waitForURL('**/tickets');
    await agent.page.getByRole('tab', { name: /Aguardando/ }).click();
    const item = agent.page.getByTestId('ticket-item').filter({ hasText: 'Cliente Navegador' });
    await item.getByRole('button', { name: 'Aceitar' }).click();
    await agent.page.getByText('Vocês entregam no sábado?').last().waitFor();
    // the conversation says how long a reply may wait on this channel
    await agent.page.getByText(/24 horas/).waitFor();

    const composer = agent.page.getByLabel('Digite uma mensagem ou "/" para respostas rápidas');
    const sent = new Promise<{ body: Record<string, unknown> }>((resolve) => {
      m.graph.onSend = (message) => resolve(message);
    });
    await composer.fill('Entregamos sim, até as 14h.');
    await composer.press('Enter');
    // the composer signs an agent's messages by default (the agent's name in bold, then the text)
    expect((await sent).body).toMatchObject({
      recipient: { id: psid },
      messaging_type: 'RESPONSE',
      message: { text: '*Ana Admin:*\nEntregamos sim, até as 14h.' },
    });

    m.graph.sendFailures.push({ status: 400, code: 100, subcode: 2018001, message: 'No matching user found' });
    await composer.fill('Esta a Meta recusa.');
    await composer.press('Enter');
    await agent.page.getByText(pt.errors.ERR_META_SEND_REFUSED as string).waitFor({ timeout: 15_000 });
    expect(agent.pageErrors).toEqual([]);
  });
});
