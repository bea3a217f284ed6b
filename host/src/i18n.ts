import { registerTranslations } from '@balcao/plugin-sdk/ui';
import pt from './locales/pt.json';

/** The shell's own namespace. */
export const SHELL_NAMESPACE = 'shell';

/** Registers the shell's texts: Portuguese (the default) bundled, the others fetched when used. */
export function registerShellTranslations(): Promise<void> {
  return registerTranslations(SHELL_NAMESPACE, {
    pt,
    en: () => import('./locales/en.json'),
    es: () => import('./locales/es.json'),
    tr: () => import('./locales/tr.json'),
  });
}
