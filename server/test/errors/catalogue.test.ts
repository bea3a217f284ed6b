import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registeredErrors } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every code the loaded product registers — the core's and every module's and plugin's — has a text in
 * each of the UI's four languages and a row in docs/api.md ("Every code"), as Fastify's own errors test
 * holds its codes to its documentation.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const LANGUAGES = ['pt', 'en', 'es', 'tr'] as const;
type Language = (typeof LANGUAGES)[number];

/** Every `locales` folder of the UI: the host's, the SDK's and each feature's (areas have their own). */
function localeFolders(): string[] {
  const folders = [path.join(ROOT, 'host/src/locales'), path.join(ROOT, 'plugin-sdk/src/ui/locales')];
  for (const parent of ['modules', 'plugins']) {
    for (const feature of readdirSync(path.join(ROOT, parent))) {
      const ui = path.join(ROOT, parent, feature, 'ui');
      let entries: string[] = [];
      try {
        entries = readdirSync(ui, { recursive: true }) as string[];
      } catch {
        continue;
      }
      for (const entry of entries) if (path.basename(entry) === 'locales') folders.push(path.join(ui, entry));
    }
  }
  return folders;
}

/** The ids of the product's features (modules and plugins), whose codes are held to this. */
function featureIds(): Set<string> {
  const ids = new Set<string>(['core']);
  for (const parent of ['modules', 'plugins']) {
    for (const entry of readdirSync(path.join(ROOT, parent), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const file = path.join(ROOT, parent, entry.name, 'package.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { balcao?: { id?: string; server?: string } };
      // a feature with no server part (a UI-only module such as the task list) answers no error codes
      const serverEntry = path.join(ROOT, parent, entry.name, manifest.balcao?.server ?? 'server/index.ts');
      if (manifest.balcao?.id && existsSync(serverEntry)) ids.add(manifest.balcao.id);
    }
  }
  return ids;
}

let t: TestApp;
/** Per language, the error texts the UI has: each locale file's `errors`, and the webchat widget's. */
const texts = Object.fromEntries(LANGUAGES.map((language) => [language, new Map<string, string>()])) as Record<
  Language,
  Map<string, string>
>;

beforeAll(async () => {
  t = await createTestApp();
  for (const folder of localeFolders()) {
    for (const language of LANGUAGES) {
      let tree: { errors?: Record<string, unknown> };
      try {
        tree = JSON.parse(readFileSync(path.join(folder, `${language}.json`), 'utf8'));
      } catch {
        continue;
      }
      for (const [code, text] of Object.entries(tree.errors ?? {})) if (typeof text === 'string') texts[language].set(code, text);
    }
  }
  // the widget is the webchat visitor's UI: its texts are a module of its own, not i18next resources
  const widget = (await import(pathToFileURL(path.join(ROOT, 'plugins/channels/widget/i18n.ts')).href)) as {
    WINDOW_TEXTS: Record<Language, { errors: Record<string, string> }>;
  };
  for (const language of LANGUAGES) {
    for (const [code, text] of Object.entries(widget.WINDOW_TEXTS[language].errors)) texts[language].set(code, text);
  }
});
afterAll(async () => {
  await t?.close();
});

/** The product's registered codes (test fixtures' codes registered in this process are not the product's). */
function productCodes(): string[] {
  const ids = featureIds();
  return [...registeredErrors()].filter(([, { owner }]) => ids.has(owner)).map(([code]) => code);
}

describe('the error codes', () => {
  it('are registered by the core and every feature', () => {
    const owners = new Set([...registeredErrors().values()].map((entry) => entry.owner));
    for (const id of featureIds()) expect(owners.has(id), id).toBe(true);
    expect(productCodes().length).toBeGreaterThan(140);
  });

  it('each have a text in pt, en, es and tr', () => {
    const missing = productCodes().flatMap((code) =>
      LANGUAGES.filter((language) => !texts[language].get(code)?.trim()).map((language) => `${language}: ${code}`),
    );
    expect(missing).toEqual([]);
  });

  it('each have their row in docs/api.md with their status', () => {
    const api = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
    const missing = productCodes().filter((code) => {
      const status = registeredErrors().get(code)?.status;
      return !api.includes(`| \`${code}\` | ${status} |`);
    });
    expect(missing).toEqual([]);
  });
});
