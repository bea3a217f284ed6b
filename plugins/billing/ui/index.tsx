import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

// pages are fetched when first visited, so the exposed entry stays light
const InvoicesPage = lazy(() => import('./pages/InvoicesPage').then((m) => ({ default: m.InvoicesPage })));
const SubscriptionPage = lazy(() => import('./pages/SubscriptionPage').then((m) => ({ default: m.SubscriptionPage })));
const ExpiredPage = lazy(() => import('./pages/ExpiredPage').then((m) => ({ default: m.ExpiredPage })));
const DemoPixPage = lazy(() => import('./pages/DemoPixPage').then((m) => ({ default: m.DemoPixPage })));

/** The billing's UI remote: invoices, the subscription and its checkout, and the demo's Pix payer. */
export default definePluginUi({
  id: 'billing',
  routes: [
    { path: '/financeiro', element: <InvoicesPage /> },
    { path: '/subscription', element: <SubscriptionPage /> },
    // the pay screen the host shows a company whose subscription expired (docs/product/administration.md#expired-subscription)
    { path: '/financeiro-aberto', element: <ExpiredPage /> },
    { path: '/billing-demo-pix/:txid', element: <DemoPixPage /> },
  ],
  i18n: { pt, en, es, tr },
});
