import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

// pages are fetched when first visited, so the exposed entry stays light
const InvoicesPage = lazy(() => import('./pages/InvoicesPage').then((m) => ({ default: m.InvoicesPage })));
const SubscriptionPage = lazy(() => import('./pages/SubscriptionPage').then((m) => ({ default: m.SubscriptionPage })));
const DemoPixPage = lazy(() => import('./pages/DemoPixPage').then((m) => ({ default: m.DemoPixPage })));

/** The billing's UI remote: invoices, the subscription and its checkout, and the demo's Pix payer. */
export default definePluginUi({
  id: 'billing',
  routes: [
    { path: '/financeiro', element: <InvoicesPage /> },
    { path: '/subscription', element: <SubscriptionPage /> },
    { path: '/billing-demo-pix/:txid', element: <DemoPixPage /> },
  ],
  i18n: { pt, en, es, tr },
});
