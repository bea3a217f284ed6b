import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import pt from './locales/pt.json';
import { useConnectionsBadge } from './useConnectionsBadge';

// The pages load on their first visit: the shell loads this entry after login for the menu badge alone.
const ConnectionsPage = lazy(() => import('./pages/ConnectionsPage').then((module) => ({ default: module.ConnectionsPage })));
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
  // Portuguese (the default) is bundled; the others load when chosen
  i18n: {
    pt,
    en: () => import('./locales/en.json'),
    es: () => import('./locales/es.json'),
    tr: () => import('./locales/tr.json'),
  },
});
