/**
 * The check every feature's locales test makes (docs/product/README.md#what-the-product-is: every text in pt, en, es and tr): the same keys in
 * every language as in pt, no empty text, and the same `{{placeholders}}` in each text. Pure: usable from
 * server and UI tests alike (`@balcao/plugin-sdk/testing/translations`).
 */
interface Tree {
  [key: string]: unknown;
}

/** Every leaf of a translation tree as a dotted key, with its text. */
export function translationLeaves(tree: object, prefix = ''): Array<[string, string]> {
  return Object.entries(tree as Tree).flatMap(
    ([key, value]): Array<[string, string]> =>
      typeof value === 'object' && value !== null
        ? translationLeaves(value, `${prefix}${key}.`)
        : [[`${prefix}${key}`, String(value)]],
  );
}

const placeholdersOf = (text: string) =>
  (text.match(/\{\{\s*\w+\s*\}\}/g) ?? [])
    .map((p) => p.replace(/\s/g, ''))
    .sort()
    .join(',');

/**
 * What is wrong with a set of translations, pt being the reference: `en: missing a.b`, `es: extra c`,
 * `tr: empty d`, `en: placeholders of e`. Empty when all is well.
 */
export function translationProblems(trees: Record<string, object>, reference = 'pt'): string[] {
  const base = new Map(translationLeaves(trees[reference] ?? {}));
  const problems: string[] = [];
  for (const [language, tree] of Object.entries(trees)) {
    const leaves = new Map(translationLeaves(tree));
    for (const key of base.keys()) if (!leaves.has(key)) problems.push(`${language}: missing ${key}`);
    for (const [key, text] of leaves) {
      if (!base.has(key)) problems.push(`${language}: extra ${key}`);
      else if (text.trim() === '') problems.push(`${language}: empty ${key}`);
      else if (placeholdersOf(text) !== placeholdersOf(base.get(key) as string))
        problems.push(`${language}: placeholders of ${key}`);
    }
  }
  return problems;
}
