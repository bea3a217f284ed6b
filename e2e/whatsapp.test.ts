/**
 * Linking a WhatsApp connection in a real browser (docs/channels/connections-ui.md): a company admin on
 * Connections starts the session, the row moves live to OPENING and then to "waiting for the QR code", the
 * QR dialog draws the code the session got from WhatsApp — here the loopback protocol peer
 * (plugins/channels/server/whatsapp/testing/peer), which plays WhatsApp's servers and the company's phone —,
 * the phone reads it and the dialog closes by itself on CONNECTED; a logout from the phone shows why the
 * session stopped. Linking by phone number on a phone-sized screen: the code the session got is shown in the
 * dialog, the phone types it, CONNECTED. Real Baileys, real app, no reload anywhere. Texts are the UI's
 * Portuguese, read from the plugin's locale.
 *
 * The QR case also runs on a slow WhatsApp (a relay holds the session's connection to the peer back) and a
 * slow network (the list the page reads again after "Tentar novamente" lands after the QR code came over the
 * socket): the row must keep the QR code, not fall back to the OPENING the list was read with.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, connect as tcpConnect } from 'node:net';
import path from 'node:path';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { closeOpenedPages, launchBrowser, logInThroughUi, type OpenedPage, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usePeerEverywhere, type WhatsAppCompany, WhatsAppKit } from '../plugins/channels/server/whatsapp/testing/kit';
import { muteLibsignalConsole, startWhatsAppPeer, type WhatsAppPeer } from '../plugins/channels/server/whatsapp/testing/peer';
import { newestMtime } from '../scripts/lib/build';
import { REPO_ROOT } from './build-once';

const CHANNELS = path.join(REPO_ROOT, 'plugins', 'channels');

/** The channels remote (the Connections page), built (only its compiler) when older than its sources. */
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

type Texts = { [key: string]: string | Texts };
const pt = JSON.parse(readFileSync(path.join(CHANNELS, 'ui', 'locales', 'pt.json'), 'utf8')) as Texts;
/** A text of the channels namespace in Portuguese, by its dotted key, with `{{name}}` placeholders filled. */
function text(key: string, values: Record<string, string> = {}): string {
  const found = key
    .split('.')
    .reduce<string | Texts | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), pt);
  if (typeof found !== 'string') throw new Error(`no Portuguese text ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => values[name] ?? '');
}

/**
 * A TCP relay between the app's WhatsApp sessions and the peer whose new connections can be held back for a
 * while: WhatsApp as slow to answer as the real one (the peer, on loopback, shows a QR code within
 * milliseconds, sooner than a page can read its list again).
 */
interface Relay {
  url: string;
  server: Server;
  /** How long each new connection waits before it reaches the peer (0: at once). */
  holdMs: number;
}

async function startRelay(peerUrl: string): Promise<Relay> {
  const target = new URL(peerUrl);
  const relay: Relay = { url: '', holdMs: 0, server: createServer() };
  relay.server.on('connection', (client) => {
    // what the client writes meanwhile waits in its socket's buffer
    const open = () => {
      const upstream = tcpConnect(Number(target.port), target.hostname);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    };
    if (relay.holdMs > 0) setTimeout(open, relay.holdMs);
    else open();
  });
  await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
  relay.url = `ws://127.0.0.1:${(relay.server.address() as AddressInfo).port}${target.pathname}`;
  return relay;
}

muteLibsignalConsole();

let peer: WhatsAppPeer;
let relay: Relay;
let t: TestApp;
let kit: WhatsAppKit;
let baseUrl: string;
let browser: Browser;
const opened: OpenedPage[] = [];
let phoneSeq = 0;
/** A phone number of its own for each account (country code first, as WhatsApp has them). */
const phone = () => {
  phoneSeq += 1;
  return `55119${String(Date.now() % 1e5).padStart(5, '0')}${String(phoneSeq).padStart(2, '0')}`;
};

beforeAll(async () => {
  buildChannelsRemote();
  peer = await startWhatsAppPeer();
  relay = await startRelay(peer.url);
  // before the app exists: its WhatsApp sessions connect to the peer (through the relay) from their first start
  usePeerEverywhere(peer, { waWebSocketUrl: relay.url });
  t = await createTestApp({ config: { hostDist: path.join(REPO_ROOT, 'host', 'dist') } });
  kit = new WhatsAppKit(t);
  baseUrl = await t.listen();
  browser = await launchBrowser();
}, 300_000);

afterEach(closeOpenedPages(opened, 'whatsapp'));
afterEach(() => {
  if (relay) relay.holdMs = 0;
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise<void>((resolve) => (relay ? relay.server.close(() => resolve()) : resolve()));
  await peer?.stop();
});

/**
 * A company on a plan with WhatsApp and its never-paired WhatsApp connection, its admin logged in through
 * the login form (at `viewport`) and on Connections.
 */
async function adminOnConnections(viewport?: { width: number; height: number }) {
  const company = await kit.company();
  const { email } = await kit.knex('users').where({ id: company.admin.id }).first('email');
  const { name } = await kit.knex('whatsapps').where({ id: company.whatsappId }).first('name');
  const opening = await openPage(browser, baseUrl, viewport ? { viewport } : {});
  opened.push(opening);
  const { page } = opening;
  await logInThroughUi(page, baseUrl, email);
  await page.goto(new URL('/connections', baseUrl).href);
  await page.getByRole('heading', { name: text('page.title') }).waitFor();
  // a reload (or a navigation) would drop this mark: what follows must happen live
  await page.evaluate(() => Object.assign(globalThis, { __sameDocument: true }));
  return { company, name: String(name), ...opening };
}

/** The connection's row (a table row, or a card under 600 px). */
const rowOf = (page: Page, company: WhatsAppCompany): Locator => page.getByTestId(`connection-${company.whatsappId}`);

/** Waits until the row's status tag says `status`, in words. */
async function rowShows(row: Locator, status: string): Promise<void> {
  await row
    .locator(`[data-status="${status}"]`)
    .filter({ hasText: text(`status.${status}`) })
    .waitFor({ timeout: 15_000 });
}

/**
 * Records in the page every status the row's tag shows, as it changes (a status may last a few milliseconds:
 * the peer is on loopback), read back with `statusesSeen`.
 */
async function recordStatuses(page: Page, company: WhatsAppCompany): Promise<void> {
  await page.evaluate((selector) => {
    interface Node {
      getAttribute(name: string): string | null;
    }
    interface DomLike {
      document: { querySelector(selector: string): Node | null; body: unknown };
      MutationObserver: new (callback: () => void) => { observe(target: unknown, options: Record<string, unknown>): void };
      __statuses: string[];
    }
    const g = globalThis as unknown as DomLike;
    g.__statuses = [];
    const read = () => {
      const status = g.document.querySelector(selector)?.getAttribute('data-status');
      if (status && g.__statuses.at(-1) !== status) g.__statuses.push(status);
    };
    read();
    new g.MutationObserver(read).observe(g.document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status'],
    });
  }, `[data-testid="connection-${company.whatsappId}"] [data-status]`);
}

const statusesSeen = (page: Page): Promise<string[]> =>
  page.evaluate(() => (globalThis as unknown as { __statuses: string[] }).__statuses);

const stillSameDocument = (page: Page): Promise<boolean> =>
  page.evaluate(() => (globalThis as unknown as { __sameDocument?: boolean }).__sameDocument === true);

/** The connection's row in the database. */
const connectionRow = (company: WhatsAppCompany) => kit.knex('whatsapps').where({ id: company.whatsappId }).first();

/** The QR dialog of the connection. */
const qrDialog = (page: Page, name: string): Locator => page.getByRole('dialog', { name: text('qr.dialogTitle', { name }) });

/** Whether the element's box lies inside the viewport's width (nothing cut off to the sides). */
async function fitsTheWidth(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

describe('linking a WhatsApp connection from the Connections page', () => {
  it('shows the live status and the QR code of the session; the phone reads it and the row turns CONNECTED; a logout from the phone says why', async () => {
    const { page, company, name, pageErrors } = await adminOnConnections();
    const row = rowOf(page, company);
    await rowShows(row, 'DISCONNECTED');
    expect(await row.getByRole('button', { name: text('actions.newQr') }).isVisible()).toBe(true);
    await recordStatuses(page, company);
    // a WhatsApp as slow as the real one and a slow network: the list the page reads again after the click
    // is read while OPENING and lands only once the QR code came over the socket; it must not take it back
    relay.holdMs = 500;
    let listLanded = false;
    await page.route(
      '**/api/whatsapp/?session=0',
      async (route) => {
        const response = await route.fetch();
        // (should the QR code never come, the test fails on its own wait: the answer just goes through)
        await rowShows(row, 'qrcode').catch(() => {});
        await route.fulfill({ response }).catch(() => {});
        listLanded = true;
      },
      { times: 1 },
    );

    // try again: OPENING (the answer), then the QR code the session got from WhatsApp, live
    await row.getByRole('button', { name: text('actions.tryAgain') }).click();
    const showQr = row.getByRole('button', { name: text('actions.showQr'), exact: true });
    await showQr.waitFor({ timeout: 15_000 });
    await rowShows(row, 'qrcode');
    expect(await statusesSeen(page)).toEqual(['DISCONNECTED', 'OPENING', 'qrcode']);
    await expect.poll(() => listLanded).toBe(true);
    relay.holdMs = 0;
    const { qrcode } = await connectionRow(company);
    expect(String(qrcode).length).toBeGreaterThan(20);

    // the dialog draws it: a canvas of dark modules on a light ground (the button is there: no wait)
    await showQr.click({ timeout: 5_000 });
    const dialog = qrDialog(page, name);
    await dialog.waitFor();
    await dialog.getByText(text('qr.title')).waitFor();
    const canvas = dialog.getByTestId('connection-qrcode').locator('canvas');
    await canvas.waitFor();
    const drawn = await canvas.evaluate((element) => {
      const c = element as unknown as {
        width: number;
        height: number;
        getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
      };
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let dark = 0;
      // dark: an opaque black module (the ground is white or transparent)
      for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128 && (data[i + 3] ?? 0) > 128) dark += 1;
      return { width: c.width, dark, all: data.length / 4 };
    });
    expect(drawn.width).toBeGreaterThan(100);
    // a QR code is roughly half dark modules: neither blank nor solid
    expect(drawn.dark / drawn.all).toBeGreaterThan(0.2);
    expect(drawn.dark / drawn.all).toBeLessThan(0.8);

    // the company's phone reads exactly what the dialog encodes (the session's QR code): the dialog closes
    // by itself and the row shows CONNECTED with the phone's number
    const account = peer.account(phone(), { pushName: 'Acme' });
    await peer.scanQr(String(qrcode), account);
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await rowShows(row, 'CONNECTED');
    await row.getByText(account.pn, { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: text('actions.disconnect') }).isVisible()).toBe(true);
    expect(await connectionRow(company)).toMatchObject({ status: 'CONNECTED', number: account.pn, qrcode: '' });

    // the phone unlinks the device: DISCONNECTED, and why, under the status (in full on the tag's tooltip)
    peer.logout(account);
    await rowShows(row, 'DISCONNECTED');
    const reason = row.getByTestId('session-error');
    await reason.filter({ hasText: text('sessionErrors.ERR_WAPP_LOGGED_OUT') }).waitFor();
    await row.locator('[data-status="DISCONNECTED"]').hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: text('errors.ERR_WAPP_LOGGED_OUT') })
      .waitFor();
    expect(await row.getByRole('button', { name: text('actions.newQr') }).isVisible()).toBe(true);
    expect((await connectionRow(company)).sessionError).toBe('ERR_WAPP_LOGGED_OUT');

    // every status once, in order: nothing went back (the late list included), no reload
    expect(await statusesSeen(page)).toEqual(['DISCONNECTED', 'OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED']);
    expect(await stillSameDocument(page)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('links by phone number on a phone-sized screen: the code appears in the dialog, the phone types it, CONNECTED', async () => {
    const { page, company, name, pageErrors } = await adminOnConnections({ width: 390, height: 844 });
    const row = rowOf(page, company);
    await rowShows(row, 'DISCONNECTED');
    // the page's title is whole beside its buttons (restart-all is an icon here)
    const title = page.getByRole('heading', { name: text('page.title') });
    expect(await title.evaluate((heading) => heading.scrollWidth <= heading.clientWidth)).toBe(true);
    expect(await page.getByRole('button', { name: text('page.restartAll') }).textContent()).toBe('');
    await row.getByRole('button', { name: text('actions.tryAgain') }).click();
    const showQr = row.getByRole('button', { name: text('actions.showQr'), exact: true });
    await showQr.waitFor({ timeout: 15_000 });
    await showQr.click();

    // the dialog and its QR code fit the phone's width
    const dialog = qrDialog(page, name);
    await dialog.getByTestId('connection-qrcode').locator('canvas').waitFor();
    expect(await fitsTheWidth(page, dialog)).toBe(true);
    expect(await fitsTheWidth(page, dialog.getByTestId('connection-qrcode'))).toBe(true);

    // the number tab: the company's number (typed as people do), then the code the session got
    const account = peer.account(phone(), { pushName: 'Acme' });
    await dialog.getByRole('tab', { name: text('qr.tabNumber') }).click();
    const typed = `+${account.pn.slice(0, 2)} ${account.pn.slice(2, 4)} ${account.pn.slice(4, 9)}-${account.pn.slice(9)}`;
    await dialog.getByLabel(text('qr.numberLabel')).fill(typed);
    await dialog.getByRole('button', { name: text('qr.requestCode') }).click();
    const shown = dialog.getByTestId('pairing-code');
    await shown.waitFor({ timeout: 15_000 });
    const { pairingCode, status } = await connectionRow(company);
    expect(status).toBe('PAIRING');
    expect(String(pairingCode)).toMatch(/^[A-Z0-9]{8}$/);
    const formatted = `${pairingCode.slice(0, 4)}-${pairingCode.slice(4)}`;
    expect(await shown.textContent()).toBe(formatted);
    await dialog.getByText(text('qr.steps.number')).waitFor();
    // the code, large, is whole on the screen (not cut, not wrapped)
    expect(await fitsTheWidth(page, shown)).toBe(true);
    expect(await fitsTheWidth(page, dialog)).toBe(true);
    expect((await shown.boundingBox())?.height ?? 0).toBeLessThan(60);

    // the phone types the code read on the screen: the dialog closes by itself, CONNECTED with the number
    await peer.enterPairingCode(account, (await shown.textContent())?.replace('-', '') ?? '');
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await rowShows(row, 'CONNECTED');
    await row.getByText(account.pn, { exact: true }).waitFor();
    expect(await connectionRow(company)).toMatchObject({ status: 'CONNECTED', number: account.pn, pairingCode: null });

    expect(await stillSameDocument(page)).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
