import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const FacebookLogin = lazy(() => import('./slots/FacebookLogin'));
const WindowNotice = lazy(() => import('./slots/WindowNotice'));

/**
 * The Meta channels' UI (docs/meta.md): Facebook Login on the Connections page (`connectionLogin`), and the
 * composer's notice of a closed WhatsApp Cloud window with its approved templates (`composerNotice`).
 */
export default definePluginUi({
  id: 'meta',
  routes: [],
  i18n: { pt, en, es, tr },
  slots: {
    connectionLogin: [{ key: 'facebook-login', Component: FacebookLogin }],
    composerNotice: [{ key: 'whatsapp-window', planFlag: 'useWhatsapp', Component: WindowNotice }],
  },
});
