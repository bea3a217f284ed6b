import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  type FeatureTranslations,
  isLanguage,
  LANGUAGES,
  type Language,
  type TranslationTree,
} from './languages';
import pt from './locales/pt.json';

/** The SDK's own namespace: error codes and the texts every feature shares. */
export const CORE_NAMESPACE = 'core';

/** Where the chosen interface language is kept. */
const LANGUAGE_KEY = 'language';

function storedLanguage(): Language {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/**
 * The one i18next instance of the page. It lives in the SDK, which is a Module Federation singleton, so
 * the host and every remote translate with it; each feature adds its own namespace.
 */
// annotated: the inferred type is i18next's CommonJS declaration, which no import specifier names, and the
// SDK's declarations (its API report, plugin-sdk/api-report.ts) must be able to write it
export const i18n: ReturnType<typeof i18next.createInstance> = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: [CORE_NAMESPACE],
  defaultNS: CORE_NAMESPACE,
  // Portuguese, the default, is bundled; the other languages arrive through loadLanguage()
  resources: { pt: { core: pt } },
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
  // resources are bundled: translate synchronously from the first render
  initAsync: false,
  returnNull: false,
});

/** The `lang` attribute of the page for an interface language. */
function documentLanguage(language: Language): string {
  return language === 'pt' ? 'pt-BR' : language;
}

// screen readers and the browser's spell-checking follow the interface language, from the first render
i18n.on('languageChanged', (language) => {
  if (isLanguage(language)) globalThis.document?.documentElement.setAttribute('lang', documentLanguage(language));
});

type TranslationLoader = () => Promise<{ default: TranslationTree }>;

const registeredNamespaces = new Set<string>([CORE_NAMESPACE]);
/** Languages of each namespace that are fetched on first use. */
const pendingLoaders = new Map<string, Partial<Record<Language, TranslationLoader>>>([
  [
    CORE_NAMESPACE,
    { en: () => import('./locales/en.json'), es: () => import('./locales/es.json'), tr: () => import('./locales/tr.json') },
  ],
]);

/**
 * Fetches every namespace's translations for `language` that are not loaded yet. The host awaits it for
 * the stored language before its first render; `setLanguage` awaits it before switching.
 */
export async function loadLanguage(language: Language): Promise<void> {
  await Promise.all(
    [...pendingLoaders].map(async ([namespace, loaders]) => {
      const loader = loaders[language];
      if (!loader) return;
      const { default: tree } = await loader();
      i18n.addResourceBundle(language, namespace, tree, true, true);
      delete loaders[language];
    }),
  );
  // i18next resolves the chosen language at init, when only Portuguese is bundled: it then falls back to
  // Portuguese (resolvedLanguage 'pt'). Once the chosen language's texts are in, resolve it again.
  if (i18n.language === language && i18n.resolvedLanguage !== language) await i18n.changeLanguage(language);
}

/**
 * Adds a feature's translations under its own namespace (one namespace per feature). Languages given as
 * loaders are fetched when used; the current one right away. Calling it again with the same namespace
 * merges and overrides.
 */
export function registerTranslations(namespace: string, translations: FeatureTranslations): Promise<void> {
  const loaders: Partial<Record<Language, TranslationLoader>> = {};
  for (const language of LANGUAGES) {
    const source = translations[language];
    if (typeof source === 'function') loaders[language] = source;
    else i18n.addResourceBundle(language, namespace, source, true, true);
  }
  pendingLoaders.set(namespace, { ...(pendingLoaders.get(namespace) ?? {}), ...loaders });
  registeredNamespaces.add(namespace);
  return loadLanguage(currentLanguage());
}

/** Every namespace registered so far, the core's first. */
export function translationNamespaces(): string[] {
  return [...registeredNamespaces];
}

/**
 * The current interface language: the chosen one (stored on this device), even before its texts have
 * been fetched (i18next's `resolvedLanguage` is Portuguese until then).
 */
export function currentLanguage(): Language {
  if (isLanguage(i18n.language)) return i18n.language;
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers the choice on this device. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
  } catch {
    // private mode or full storage: the choice lasts for this page only
  }
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

/** Picks the label of the current language from a `{ pt, en, es, tr }` record (menu entries of manifests). */
export function localized(labels: Record<Language, string>, language: Language = currentLanguage()): string {
  return labels[language] ?? labels[DEFAULT_LANGUAGE];
}
