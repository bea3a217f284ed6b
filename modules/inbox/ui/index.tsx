import { definePluginUi, type FeatureTranslations, LANGUAGES } from '@balcao/plugin-sdk/ui';
import { directoryLocales, directoryMenu, directoryRoutes } from './directory';
import { privacyLocales, privacySlots } from './privacy';
import { ticketsLocales, ticketsMenu, ticketsRoutes, ticketsSlots } from './tickets';

/**
 * The inbox's screens: the Tickets screen (docs/product/tickets-and-inbox.md#screens-and-routes) and the directory pages around it — contacts and
 * their import, quick messages, tags — and the company's LGPD duties (privacy/). One i18n namespace (`inbox`), assembled from each area's files.
 */
export default definePluginUi({
  id: 'inbox',
  routes: [...ticketsRoutes, ...directoryRoutes],
  menu: [...ticketsMenu, ...directoryMenu],
  slots: { ...ticketsSlots, ...privacySlots },
  i18n: Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      { ...ticketsLocales[language], ...directoryLocales[language], ...privacyLocales[language] },
    ]),
  ) as FeatureTranslations,
});
