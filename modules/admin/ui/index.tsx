import { definePluginUi, type FeatureTranslations, LANGUAGES, type TranslationTree } from '@balcao/plugin-sdk/ui';
import { platformLocales, platformMenu, platformRoutes, platformSlots } from './platform';
import { queuesLocales, queuesMenu, queuesRoutes } from './queues';
import { teamLocales, teamMenu, teamRoutes, teamUserMenu } from './team';

/**
 * The administration screens (docs/product/administration.md#screens-and-routes): users and settings (team), queues with their
 * chatbots (queues), and the super user's platform pages. One i18n namespace (`admin`).
 */
export default definePluginUi({
  id: 'admin',
  routes: [...teamRoutes, ...queuesRoutes, ...platformRoutes],
  menu: [...teamMenu, ...queuesMenu, ...platformMenu],
  // the team area's Profile item in the avatar menu, beside the platform area's slots
  slots: { ...platformSlots, userMenu: [...teamUserMenu, ...(platformSlots?.userMenu ?? [])] },
  i18n: Object.fromEntries(
    LANGUAGES.map((language) => {
      const trees = [teamLocales[language], queuesLocales[language], platformLocales[language]] as TranslationTree[];
      // every area may translate its own error codes: `errors` is merged, not replaced
      const errors = Object.assign({}, ...trees.map((tree) => tree.errors ?? {}));
      return [language, { ...Object.assign({}, ...trees), errors }];
    }),
  ) as FeatureTranslations,
});
