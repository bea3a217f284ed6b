import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import pt from './locales/pt.json';
import { useConnectionsBadge } from './useConnectionsBadge';

// The pages load on their first visit: the shell loads this entry after login for the menu badge alone.
const ConnectionsPage = lazy(() => import('./pages/ConnectionsPage').then((module) => ({ default: module.ConnectionsPage })));
const SupportChatTab = lazy(() => import('./support/SupportChatTab'));
const AllConnectionsPage = lazy(() =>
  import('./pages/AllConnectionsPage').then((module) => ({ default: module.AllConnectionsPage })),
);

/** The channels' UI remote (docs/product/administration.md#connections, All connections; docs/product/tickets-and-inbox.md#screens-and-routes Connections badge). */
export default definePluginUi({
  id: 'channels',
  routes: [
    { path: '/connections', element: <ConnectionsPage /> },
    { path: '/allConnections', element: <AllConnectionsPage /> },
  ],
  menuBadges: { connections: useConnectionsBadge },
  slots: {
    // the login page's support chat is the platform's: only the super user chooses it (docs/channels/widget.md)
    settingsTabs: [
      {
        key: 'support-chat',
        superOnly: true,
        label: { pt: 'Chat de suporte', en: 'Support chat', es: 'Chat de soporte', tr: 'Destek sohbeti' },
        Component: SupportChatTab,
      },
    ],
  },
  // Portuguese (the default) is bundled; the others load when chosen
  i18n: {
    pt,
    en: () => import('./locales/en.json'),
    es: () => import('./locales/es.json'),
    tr: () => import('./locales/tr.json'),
  },
});
