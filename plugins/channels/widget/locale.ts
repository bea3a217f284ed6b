/** The widget's languages; pt is the default. */
export const WIDGET_LOCALES = ['pt', 'en', 'es', 'tr'] as const;
export type WidgetLocale = (typeof WIDGET_LOCALES)[number];

/** The supported language of a tag (`pt-BR` → pt, `en_US` → en), or null. */
export function supportedLocale(tag: string | null | undefined): WidgetLocale | null {
  const code = (tag ?? '').trim().slice(0, 2).toLowerCase();
  return (WIDGET_LOCALES as readonly string[]).includes(code) ? (code as WidgetLocale) : null;
}

/**
 * The widget's language: the one the page asked for (`data-locale` or `setLocale`), else the page's
 * `<html lang>`, else the browser's languages in order; a candidate we don't speak is skipped; pt at last.
 */
export function chooseLocale(candidates: ReadonlyArray<string | null | undefined>): WidgetLocale {
  for (const candidate of candidates) {
    const locale = supportedLocale(candidate);
    if (locale) return locale;
  }
  return 'pt';
}

/** The candidates of the page the widget runs on, after the explicit choice. */
export function pageLocaleCandidates(explicit: string | null | undefined): Array<string | null | undefined> {
  return [explicit, document.documentElement.lang, ...navigator.languages];
}

/** The launcher's own label (the loader carries only this; the window's texts are in i18n.ts, loaded on open). */
export const LAUNCHER_TEXTS: Record<WidgetLocale, string> = {
  pt: 'Abrir conversa',
  en: 'Open chat',
  es: 'Abrir conversación',
  tr: 'Sohbeti aç',
};
