import { definePluginUi, LANGUAGES } from '@balcao/plugin-sdk/ui';

/** The channels screens (2-administration §2 Connections, All connections): filled by the issue-5 UI work. */
export default definePluginUi({
  id: 'channels',
  routes: [],
  i18n: Object.fromEntries(LANGUAGES.map((language) => [language, {}])) as never,
});
