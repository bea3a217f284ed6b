import type { TranslationTree } from '@balcao/plugin-sdk/ui';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';

function leaves(tree: TranslationTree, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : Object.entries(leaves(value, `${prefix}${key}.`)),
    ),
  );
}

const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();

describe("the queues area's translations", () => {
  it('use only their own top-level keys (and error codes)', () => {
    for (const tree of [pt, en, es, tr]) expect(Object.keys(tree).sort()).toEqual(['errors', 'queues']);
  });

  it('have the same keys and placeholders in pt, en, es and tr, none empty', () => {
    const reference = leaves(pt);
    for (const [language, tree] of Object.entries({ en, es, tr })) {
      const own = leaves(tree);
      expect(Object.keys(own).sort(), language).toEqual(Object.keys(reference).sort());
      for (const [key, text] of Object.entries(own)) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(reference[key] ?? ''));
      }
    }
  });

  it("use the spec's words", () => {
    expect(pt.queues.toasts.botSaved).toBe('Bot saved successfully');
    expect(pt.queues.toasts.hoursSaved).toBe('Horários atualizados com sucesso');
  });
});
