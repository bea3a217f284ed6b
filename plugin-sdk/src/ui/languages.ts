/** The interface languages (docs/product/README.md#what-the-product-is): Portuguese is the default. */
export const LANGUAGES = ['pt', 'en', 'es', 'tr'] as const;

/** One interface language. */
export type Language = (typeof LANGUAGES)[number];

/** The default interface language. */
export const DEFAULT_LANGUAGE: Language = 'pt';

/** A tree of translated strings, as a feature's locale JSON file holds it. */
export interface TranslationTree {
  [key: string]: string | TranslationTree;
}

/** A language's translations: the tree itself, or a loader that fetches it when the language is used. */
export type TranslationSource = TranslationTree | (() => Promise<{ default: TranslationTree }>);

/**
 * One translation source per language: what a feature hands to `definePluginUi({ i18n })`. Trees are
 * bundled with the feature; loaders (`() => import('./locales/en.json')`) keep languages nobody uses out of
 * the download.
 */
export type FeatureTranslations = Record<Language, TranslationSource>;

/** True when `value` names one of the interface languages. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
