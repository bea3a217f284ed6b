/**
 * Browser helpers for tests and measurements: Debian's chromium driven by playwright-core (never a
 * downloaded browser), a page that keeps a network log, and a login through the real login form.
 *
 * @example
 * const browser = await launchBrowser();
 * const { page, network } = await openPage(browser, baseUrl);
 * await logInThroughUi(page, baseUrl, 'admin@acme.test');
 * await browser.close();
 * @packageDocumentation
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** The chromium binary (Debian's package); override with `CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags chromium needs here: headless as root without a sandbox or GPU, and none of its background
 * traffic (without the networking flags it keeps trying to reach the outside). Playwright adds a fresh
 * temporary `--user-data-dir` to every launch itself.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches chromium with a fresh profile. Close it with `browser.close()`. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS] });
}

/** One request the page made. */
export interface NetworkEntry {
  url: string;
  method: string;
  resourceType: string;
}

/** A page in its own context (own storage and cookies), with every request it makes recorded. */
export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Every request of the context, in order (including those of other pages of the context). */
  network: NetworkEntry[];
  /** Errors thrown in the page (uncaught exceptions). */
  pageErrors: Error[];
}

/** Options of `openPage`. */
export interface OpenPageOptions {
  viewport?: { width: number; height: number };
}

/** Opens a page in a new context at `baseUrl` (nothing is loaded until the caller navigates). */
export async function openPage(browser: Browser, baseUrl: string, options: OpenPageOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: options.viewport ?? { width: 1280, height: 800 } });
  const network: NetworkEntry[] = [];
  context.on('request', (request) => {
    network.push({ url: request.url(), method: request.method(), resourceType: request.resourceType() });
  });
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  return { context, page, network, pageErrors };
}

/** The password of every demo login. */
export const DEMO_PASSWORD = 'demo1234';

/** Options of `logInThroughUi`. */
export interface UiLoginOptions {
  password?: string;
  remember?: boolean;
  /** Wait for the app frame (default) or return right after submitting. */
  waitForFrame?: boolean;
  /** The page already shows /login: fill it in place instead of navigating there first. */
  alreadyOnLoginPage?: boolean;
}

/**
 * Logs in through the real login form (whatever the interface language): opens /login, fills e-mail and
 * password, submits, accepts the low-security dialog if a weak password brings it up, and waits for the
 * frame's greeting.
 */
export async function logInThroughUi(page: Page, baseUrl: string, email: string, options: UiLoginOptions = {}): Promise<void> {
  if (!options.alreadyOnLoginPage) await page.goto(new URL('/login', baseUrl).href);
  await page.locator('input[type="email"]').fill(email);
  await page.locator('input[type="password"]').fill(options.password ?? DEMO_PASSWORD);
  if (options.remember) await page.locator('input[type="checkbox"]').check();
  await page.locator('button[type="submit"]').click();
  if (options.waitForFrame === false) return;
  const greeting = page.getByTestId('greeting');
  const weakPasswordDialog = page.locator('.ant-modal-confirm, .ant-modal').locator('.ant-btn-primary');
  await greeting.or(weakPasswordDialog).first().waitFor({ state: 'visible', timeout: 15_000 });
  if (!(await greeting.isVisible())) {
    await weakPasswordDialog.click();
    await greeting.waitFor({ state: 'visible', timeout: 15_000 });
  }
}

/**
 * An `afterEach` for browser tests: when the test failed, a full-page screenshot of each page it opened is
 * left in the temporary folder (`balcao-e2e-<label>-<n>.png`, to see what the browser showed); then the
 * pages' contexts are closed and the list emptied.
 */
export function closeOpenedPages(opened: OpenedPage[], label: string) {
  return async ({ task }: { task: { result?: { state?: string } } }): Promise<void> => {
    if (task.result?.state === 'fail') {
      for (const [index, { page }] of opened.entries()) {
        await page.screenshot({ path: path.join(tmpdir(), `balcao-e2e-${label}-${index}.png`), fullPage: true }).catch(() => {});
      }
    }
    for (const { context } of opened.splice(0)) await context.close();
  };
}
