import type { Language, PluginUiSlots, TranslationTree, UiMenuEntry, UiRoute } from '@balcao/plugin-sdk/ui';
import { lazy } from 'react';
import { TicketNotifications } from './components/notifications/TicketNotifications';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';

/**
 * The Tickets screen of the inbox (docs/product/tickets-and-inbox.md#screens-and-routes): its route, menu entry, the notification bell of the top bar,
 * and its texts (`tickets.*`, plus the inbox's own `errors.*` codes that `showError` translates).
 */
const TicketsPage = lazy(() => import('./TicketsPage'));

export const ticketsRoutes: UiRoute[] = [{ path: '/tickets/:ticketId?', element: <TicketsPage /> }];

export const ticketsMenu: UiMenuEntry[] = [
  {
    key: 'tickets',
    group: 'main',
    path: '/tickets',
    icon: 'WhatsAppOutlined',
    order: 1,
    label: { pt: 'Atendimentos', en: 'Tickets', es: 'Atenciones', tr: 'Talepler' },
  },
];

/** The bell first in the top bar, before the announcements (20) and the internal chat (30). */
export const ticketsSlots: PluginUiSlots = { topBar: [{ key: 'notifications', Component: TicketNotifications, order: 10 }] };

export const ticketsLocales: Record<Language, TranslationTree> = { pt, en, es, tr };
