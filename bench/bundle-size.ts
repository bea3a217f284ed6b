/**
 * How much JavaScript the browser loads: before the login page paints, until the login form is ready,
 * and for the whole shell after a login. Sizes are the gzip (level 9) size of each JS response body, so
 * they don't depend on what the server compresses with.
 *
 *   node --import tsx bench/bundle-size.ts http://localhost:8080
 *
 * Uses Debian's chromium through playwright-core (see plugin-sdk/src/testing/browser.ts) and the demo
 * login admin@acme.test / demo1234.
 */
import { gzipSync } from 'node:zlib';
import { launchBrowser, logInThroughUi, openPage } from '@balcao/plugin-sdk/testing/browser';
import type { Page, Response } from 'playwright-core';

/** One JS file the page loaded. */
export interface LoadedScript {
  url: string;
  rawBytes: number;
  gzipBytes: number;
  /** When it finished loading, in ms since navigation start. */
  responseEndMs: number;
  /** `login` (before the login form was ready) or `shell` (after submitting the login). */
  phase: 'login' | 'shell';
}

/** What `measureBundles` reports. */
export interface BundleSizes {
  /** JS whose download finished before the login page's first contentful paint (the budget: ≤ 300 KB). */
  loginJsGzipBytes: number;
  loginJsFiles: number;
  /** First contentful paint of /login, ms since navigation start. */
  loginFirstPaintMs: number;
  /** All JS loaded until the login form is visible and the network is idle (stricter: nothing deferred). */
  loginReadyJsGzipBytes: number;
  loginReadyJsFiles: number;
  /** All JS of the session: the login plus everything the frame loaded after logging in as the demo admin. */
  shellJsGzipBytes: number;
  shellJsFiles: number;
  /** What the frame added after the login (shell minus login-ready). */
  frameJsGzipBytes: number;
  scripts: LoadedScript[];
}

function isScript(response: Response): boolean {
  const type = response.request().resourceType();
  const path = new URL(response.url()).pathname;
  return type === 'script' || path.endsWith('.js') || path.endsWith('.mjs');
}

/** The page's resource timings by URL (code run in the page, typed apart from Node's own `performance`). */
async function resourceEndTimes(page: Page): Promise<Map<string, number>> {
  const entries = await page.evaluate(() => {
    const timing = globalThis.performance as unknown as {
      getEntriesByType(type: 'resource'): Array<{ name: string; responseEnd: number }>;
    };
    return timing.getEntriesByType('resource').map((entry) => ({ name: entry.name, end: entry.responseEnd }));
  });
  return new Map(entries.map((entry) => [entry.name, entry.end]));
}

/** The first contentful paint of the page, ms since navigation start (waits for it if it has not happened). */
function firstContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        type PaintEntry = { startTime: number };
        const browser = globalThis as unknown as {
          performance: { getEntriesByName(name: string): PaintEntry[] };
          PerformanceObserver: new (
            callback: (list: { getEntriesByName(name: string): PaintEntry[] }) => void,
          ) => { observe(options: { type: string; buffered: boolean }): void };
        };
        const existing = browser.performance.getEntriesByName('first-contentful-paint')[0];
        if (existing) return resolve(existing.startTime);
        new browser.PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
}

/** A script's decoded size and its gzip (level 9) size, read again from the server. */
async function scriptSize(url: string, phase: LoadedScript['phase']): Promise<Omit<LoadedScript, 'responseEndMs'>> {
  const body = Buffer.from(await (await fetch(url)).arrayBuffer());
  return { url, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length, phase };
}

const sum = (scripts: LoadedScript[]) => scripts.reduce((total, script) => total + script.gzipBytes, 0);

/** Loads /login, then logs in, and reports the JS each step needed (see `BundleSizes`). */
/**
 * Waits until the page's network is idle, or 10 s at most: the figures need every script the page asked for
 * to have arrived, not a page that stops talking (in a browser tier run the login page once never counted
 * as idle within 30 s, though every script had long arrived).
 */
async function settleNetwork(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
}

export async function measureBundles(baseUrl: string): Promise<BundleSizes> {
  const browser = await launchBrowser();
  try {
    const { page, context } = await openPage(browser, baseUrl);
    let phase: LoadedScript['phase'] = 'login';
    // bodies are read after the run, from the server: asking chromium for them while the page loads keeps
    // its network from ever counting as idle (chromium 156)
    const seen: Array<{ url: string; phase: LoadedScript['phase'] }> = [];
    context.on('response', (response) => {
      if (isScript(response) && response.status() === 200) seen.push({ url: response.url(), phase });
    });

    await page.goto(new URL('/login', baseUrl).href);
    await page.locator('input[type="email"]').waitFor({ state: 'visible' });
    await settleNetwork(page);
    const loginFirstPaintMs = await firstContentfulPaint(page);
    const loginEnds = await resourceEndTimes(page);

    phase = 'shell';
    await logInThroughUi(page, baseUrl, 'admin@acme.test', { alreadyOnLoginPage: true });
    await settleNetwork(page);
    // the menu's icons and the plugin list arrive just after the greeting: let them settle
    await page.waitForTimeout(500);
    await settleNetwork(page);
    const shellEnds = await resourceEndTimes(page);

    const scripts = (await Promise.all(seen.map(({ url, phase: seenIn }) => scriptSize(url, seenIn)))).map((script) => ({
      ...script,
      responseEndMs: loginEnds.get(script.url) ?? shellEnds.get(script.url) ?? Number.POSITIVE_INFINITY,
    }));
    const beforePaint = scripts.filter((script) => script.phase === 'login' && script.responseEndMs <= loginFirstPaintMs);
    const loginReady = scripts.filter((script) => script.phase === 'login');
    return {
      loginJsGzipBytes: sum(beforePaint),
      loginJsFiles: beforePaint.length,
      loginFirstPaintMs: Math.round(loginFirstPaintMs),
      loginReadyJsGzipBytes: sum(loginReady),
      loginReadyJsFiles: loginReady.length,
      shellJsGzipBytes: sum(scripts),
      shellJsFiles: scripts.length,
      frameJsGzipBytes: sum(scripts) - sum(loginReady),
      scripts,
    };
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// Run on its own: print the figures and the biggest files.
if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.argv[2] ?? 'http://localhost:8080';
  const sizes = await measureBundles(baseUrl);
  console.log(
    `JS before the login page paints: ${kb(sizes.loginJsGzipBytes)} gzip in ${sizes.loginJsFiles} files (FCP ${sizes.loginFirstPaintMs} ms)`,
  );
  console.log(`JS until the login form is ready: ${kb(sizes.loginReadyJsGzipBytes)} gzip in ${sizes.loginReadyJsFiles} files`);
  console.log(
    `Whole shell after login:          ${kb(sizes.shellJsGzipBytes)} gzip in ${sizes.shellJsFiles} files (frame adds ${kb(sizes.frameJsGzipBytes)})`,
  );
  for (const script of [...sizes.scripts].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 12)) {
    console.log(`  ${script.phase.padEnd(5)} ${kb(script.gzipBytes).padStart(9)}  ${new URL(script.url).pathname}`);
  }
}
