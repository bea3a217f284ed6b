import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { translationProblems } from '@balcao/plugin-sdk/testing/translations';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

const trees = { pt, en, es, tr };

describe('the privacy texts', () => {
  it('say the same things in pt, en, es and tr, under privacy only', () => {
    expect(translationProblems(trees)).toEqual([]);
    for (const tree of Object.values(trees)) expect(Object.keys(tree)).toEqual(['privacy']);
  });

  it('cover every key the privacy screens ask for', () => {
    const folder = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
    const has = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], pt);
    const asked = readdirSync(folder)
      .filter((name) => /\.tsx?$/.test(name))
      .flatMap((name) => [...readFileSync(path.join(folder, name), 'utf8').matchAll(/\bt\('(privacy\.[A-Za-z0-9_.]+)'/g)])
      .map((match) => match[1] as string);
    expect(asked.length).toBeGreaterThan(10);
    // a plural key is asked without its suffix
    expect(asked.filter((key) => typeof has(key) !== 'string' && typeof has(`${key}_one`) !== 'string')).toEqual([]);
    for (const action of ['export', 'erase', 'retention']) expect(typeof has(`privacy.log.${action}`)).toBe('string');
  });
});
