import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh page: the i18n module reads the stored language when it loads. */
async function loadPage(storedLanguage: string | null) {
  if (storedLanguage) globalThis.localStorage.setItem('language', storedLanguage);
  vi.resetModules();
  return import('./i18n');
}

describe('the interface language', () => {
  afterEach(() => {
    document.documentElement.setAttribute('lang', 'pt-BR');
  });

  it('comes back after a reload in the language the user chose, not in Portuguese', async () => {
    const page = await loadPage('en');
    expect(page.currentLanguage()).toBe('en');
    // what the host's bootstrap does before its first render
    await page.registerTranslations('shell', {
      pt: { hello: 'Olá' },
      en: async () => ({ default: { hello: 'Hello' } }),
      es: async () => ({ default: { hello: 'Hola' } }),
      tr: async () => ({ default: { hello: 'Merhaba' } }),
    });
    expect(page.i18n.resolvedLanguage).toBe('en');
    expect(page.i18n.t('hello', { ns: 'shell' })).toBe('Hello');
    expect(page.i18n.t('errors.generic', { ns: page.CORE_NAMESPACE })).toBe('An error occurred!');
    expect(document.documentElement.getAttribute('lang')).toBe('en');
  });

  it('is Portuguese when nothing was chosen, and follows a switch', async () => {
    const page = await loadPage(null);
    expect(page.currentLanguage()).toBe('pt');
    expect(page.i18n.t('errors.generic', { ns: page.CORE_NAMESPACE })).toBe('Ocorreu um erro!');
    await page.setLanguage('tr');
    expect(page.currentLanguage()).toBe('tr');
    expect(page.i18n.resolvedLanguage).toBe('tr');
    expect(globalThis.localStorage.getItem('language')).toBe('tr');
    expect(document.documentElement.getAttribute('lang')).toBe('tr');
  });
});
