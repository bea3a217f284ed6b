import type { Language } from '@balcao/plugin-sdk/ui';

/**
 * Each interface language named in itself, whatever the interface language: someone who can't read the
 * current one still finds their own in the language menu.
 */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  pt: 'Português',
  en: 'English',
  es: 'Español',
  tr: 'Türkçe',
};
