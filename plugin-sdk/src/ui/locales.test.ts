import { describe, expect, it } from 'vitest';
import { CORE_ERRORS } from '../shared/errors';
import { LANGUAGES, type TranslationTree } from './languages';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** Every leaf key of a translation tree, dotted. */
function leafKeys(tree: TranslationTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

describe("the SDK's translations", () => {
  const trees: Record<(typeof LANGUAGES)[number], TranslationTree> = { pt, en, es, tr };

  it('translate every core error code in all four languages', () => {
    for (const language of LANGUAGES) {
      for (const code of Object.keys(CORE_ERRORS)) {
        const text = (trees[language].errors as TranslationTree | undefined)?.[code];
        expect(typeof text === 'string' && text.length > 0, `${language}: ${code}`).toBe(true);
      }
    }
  });

  it('have the same keys in every language', () => {
    const reference = leafKeys(pt).sort();
    for (const language of LANGUAGES) expect(leafKeys(trees[language]).sort(), language).toEqual(reference);
  });
});
