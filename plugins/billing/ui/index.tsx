import { definePluginUi } from '@balcao/plugin-sdk/ui';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/** The billing's UI remote: its texts (the pages come in the next steps). */
export default definePluginUi({
  id: 'billing',
  routes: [],
  i18n: { pt, en, es, tr },
});
