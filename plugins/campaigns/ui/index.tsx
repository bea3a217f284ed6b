import { definePluginUi } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

const CampaignsPage = lazy(() => import('./pages/CampaignsPage').then((m) => ({ default: m.CampaignsPage })));
const CampaignReportPage = lazy(() => import('./pages/CampaignReportPage').then((m) => ({ default: m.CampaignReportPage })));
const CampaignSettingsPage = lazy(() =>
  import('./pages/CampaignSettingsPage').then((m) => ({ default: m.CampaignSettingsPage })),
);
const ContactListsPage = lazy(() => import('./pages/ContactListsPage').then((m) => ({ default: m.ContactListsPage })));
const ContactListItemsPage = lazy(() =>
  import('./pages/ContactListItemsPage').then((m) => ({ default: m.ContactListItemsPage })),
);

/** The campaigns' UI remote (loaded by the shell only for companies whose plan has useCampaigns). */
export default definePluginUi({
  id: 'campaigns',
  routes: [
    { path: '/campaigns', element: <CampaignsPage /> },
    { path: '/campaign/:campaignId/report', element: <CampaignReportPage /> },
    { path: '/campaigns-config', element: <CampaignSettingsPage /> },
    { path: '/contact-lists', element: <ContactListsPage /> },
    { path: '/contact-lists/:contactListId/contacts', element: <ContactListItemsPage /> },
  ],
  i18n: { pt, en, es, tr },
  permissions: { 'campaigns:manage': ['admin'] },
});
