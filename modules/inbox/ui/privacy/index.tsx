import type { Language, PluginUiSlots, TranslationTree } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const ContactPrivacyActions = lazy(() => import('./ContactPrivacyActions'));
const RetentionTab = lazy(() => import('./RetentionTab'));

/**
 * The company's LGPD duties in the inbox's screens: export and erase in the contact drawer (admins), the
 * retention of messages and the privacy log as a Settings tab. Texts under `privacy.*` (locales/).
 */
export const privacySlots: PluginUiSlots = {
  contactDrawer: [{ key: 'privacy', Component: ContactPrivacyActions, order: 90 }],
  settingsTabs: [
    {
      key: 'privacy',
      label: { pt: 'Privacidade (LGPD)', en: 'Privacy (LGPD)', es: 'Privacidad (LGPD)', tr: 'Gizlilik (LGPD)' },
      Component: RetentionTab,
    },
  ],
};

export const privacyLocales: Record<Language, TranslationTree> = { pt, en, es, tr };
